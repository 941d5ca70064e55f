// Error state of the runtime API and the per-kernel attributes, shared by launch.cpp and runtime_api.cpp.
#pragma once
#include <cuda_runtime_api.h>

#include <mutex>
#include <string>

namespace emu::rt {

// Records `err` as the last error (cudaGetLastError) and returns it; cudaSuccess is returned without recording.
cudaError_t record_error(cudaError_t err);
// An error that ends the process's use of the device, as after a kernel fault on a GPU: every later call returns it.
void make_sticky(cudaError_t err);
cudaError_t sticky_error();

// CUDA may be called from several host threads at once. The emulator has one engine and one table of allocations,
// streams and events, so such calls take turns: a launch holds this lock until its grid has run (kernels of different
// host threads run one after the other, an order a GPU may also choose), and so does each call that reads or changes
// the tables. Recursive: a call may make another (cudaMemcpy2D copies row by row). Never held while a callback runs,
// which may wait for a thread that calls CUDA (host_threads.cpp).
std::recursive_mutex& api_mutex();
using ApiLock = std::lock_guard<std::recursive_mutex>;

bool stream_ok(cudaStream_t s);
// [p, p + bytes) lies in one range registered with cudaHostRegister (runtime/host_register.cpp).
bool host_registered(const void* p, std::size_t bytes);

// "ns::kernel<256>(float*)" and "kernel<BLOCK>" both become "kernel": how launches and function pointers meet.
std::string kernel_key(const std::string& name);
// The dynamic shared memory a launch of `kernel` may use without cudaErrorInvalidValue.
std::size_t max_dynamic_shared(const std::string& kernel);

}  // namespace emu::rt
