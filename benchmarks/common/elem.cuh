// Element types to and from float, on the host and on the device: what every lesson's fp64 check of its kernels
// (benchmarks/<lesson>/bench/check.cu) and the emulator tests of its reference kernels (tests/) convert with.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <type_traits>

namespace bench {

__host__ __device__ __forceinline__ float widen(float v) { return v; }
__host__ __device__ __forceinline__ float widen(__nv_bfloat16 v) { return __bfloat162float(v); }
__host__ __device__ __forceinline__ float widen(__half v) { return __half2float(v); }

// float -> T, rounded to nearest even.
template <typename T>
__host__ __device__ __forceinline__ T narrow(float v) {
    if constexpr (std::is_same<T, float>::value) return v;
    else if constexpr (std::is_same<T, __half>::value) return __float2half_rn(v);
    else return __float2bfloat16_rn(v);
}

}  // namespace bench
