// cuda::thread_scope, shared by <cuda/pipeline> and <cuda/barrier> (libcu++ defines it once for both as well).
#pragma once

namespace cuda {

enum class thread_scope { thread_scope_system, thread_scope_device, thread_scope_block, thread_scope_thread };
constexpr thread_scope thread_scope_system = thread_scope::thread_scope_system;
constexpr thread_scope thread_scope_device = thread_scope::thread_scope_device;
constexpr thread_scope thread_scope_block = thread_scope::thread_scope_block;
constexpr thread_scope thread_scope_thread = thread_scope::thread_scope_thread;

}  // namespace cuda
