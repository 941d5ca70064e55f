// thrust::malloc and thrust::free for Thrust's sequential system (thrust::seq), which the CPP system inherits: memory
// from the emulator's device heap (cudaMalloc), as for the CPP system (thrust/system/cpp/detail/malloc_and_free.h).
// thrust::seq runs inside kernels too (a block sorting its row with thrust::sort(thrust::seq, …)); its temporary
// buffers are then memory the kernel reads and writes, which must be device memory for the memory checker, as a GPU's
// device-side heap is. Thrust's own version of this header is std::malloc.
#pragma once

#include <thrust/detail/config.h>
#include <thrust/detail/raw_pointer_cast.h>
#include <thrust/system/detail/sequential/execution_policy.h>

#include <cuda_runtime_api.h>

THRUST_NAMESPACE_BEGIN
namespace system {
namespace detail {
namespace sequential {

// A null pointer when the heap is exhausted, as std::malloc: Thrust's callers throw bad_alloc.
template <typename DerivedPolicy>
inline void* malloc(execution_policy<DerivedPolicy>&, std::size_t n) {
    void* p = nullptr;
    return cudaMalloc(&p, n ? n : 1) == cudaSuccess ? p : nullptr;
}

template <typename DerivedPolicy, typename Pointer>
inline void free(sequential::execution_policy<DerivedPolicy>&, Pointer ptr) {
    cudaFree(thrust::raw_pointer_cast(ptr));
}

}  // namespace sequential
}  // namespace detail
}  // namespace system
THRUST_NAMESPACE_END
