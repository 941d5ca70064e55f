// thrust::malloc and thrust::free for Thrust's CPP system, the device system under the emulator (see
// thrust/system/cpp/memory_resource.h beside this folder): thrust::device_malloc, thrust::device_new and Thrust's
// temporary buffers take their memory from the emulator's device heap (cudaMalloc), so that a kernel may be
// handed a pointer from thrust::device_malloc. Thrust's own version of this header gives the CPP system the
// sequential system's std::malloc; those stay for thrust::seq.
#pragma once

#include <thrust/detail/config.h>
#include <thrust/detail/raw_pointer_cast.h>
#include <thrust/system/cpp/detail/execution_policy.h>
#include <thrust/system/detail/sequential/malloc_and_free.h>

#include <cuda_runtime_api.h>
#include <emu/thrust_host_system.hpp>

THRUST_NAMESPACE_BEGIN
namespace system {
namespace cpp {
namespace detail {

// A null pointer when the heap is exhausted, as std::malloc: Thrust's callers throw bad_alloc.
template <typename DerivedPolicy>
inline void* malloc(execution_policy<DerivedPolicy>&, std::size_t n) {
    void* p = nullptr;
    return cudaMalloc(&p, n ? n : 1) == cudaSuccess ? p : nullptr;
}

template <typename DerivedPolicy, typename Pointer>
inline void free(execution_policy<DerivedPolicy>&, Pointer ptr) {
    cudaFree(thrust::raw_pointer_cast(ptr));
}

}  // namespace detail
}  // namespace cpp
}  // namespace system
THRUST_NAMESPACE_END
