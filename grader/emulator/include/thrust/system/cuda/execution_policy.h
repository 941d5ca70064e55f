// thrust::cuda::par, par_nosync and .on(stream) for programs that name Thrust's CUDA system, which is CUB's GPU
// kernels and cannot run here: under the emulator they are the CPP system's policy, Thrust's device system (see
// thrust/system/cpp/memory_resource.h). The stream is accepted and checked by nothing: the emulator runs every stream's
// work at once, in program order, so an algorithm on a stream has finished when it returns, as after a
// cudaStreamSynchronize. Stands in front of Thrust's own header (the emulator's include folder comes first); the rest
// of <thrust/system/cuda/…> is not provided.
#pragma once

#include <thrust/detail/config.h>
#include <thrust/system/cpp/execution_policy.h>

#include <cuda_runtime_api.h>

THRUST_NAMESPACE_BEGIN
namespace system {
namespace cuda {
namespace detail {

struct par_t : thrust::system::cpp::detail::par_t {
    constexpr par_t() = default;
    par_t on(cudaStream_t) const { return *this; }
};

}  // namespace detail

THRUST_INLINE_CONSTANT detail::par_t par;
THRUST_INLINE_CONSTANT detail::par_t par_nosync;
using thrust::system::cpp::tag;

}  // namespace cuda
}  // namespace system

namespace cuda {
using thrust::system::cuda::par;
using thrust::system::cuda::par_nosync;
using thrust::system::cuda::tag;
}  // namespace cuda
namespace cuda_cub {
using thrust::system::cuda::par;
using thrust::system::cuda::par_nosync;
using thrust::system::cuda::tag;
}  // namespace cuda_cub
THRUST_NAMESPACE_END
