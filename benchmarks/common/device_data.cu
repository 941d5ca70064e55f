// Device-side inputs, poison and tolerances (see device_data.h).
#include "device_data.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "cuda_check.h"

namespace bench {
namespace {

template <typename T>
__device__ __forceinline__ T narrow(float v);
template <>
__device__ __forceinline__ float narrow<float>(float v) {
    return v;
}
template <>
__device__ __forceinline__ __nv_bfloat16 narrow<__nv_bfloat16>(float v) {
    return __float2bfloat16_rn(v);
}
template <>
__device__ __forceinline__ __half narrow<__half>(float v) {
    return __float2half_rn(v);
}

__device__ __forceinline__ uint64_t splitmix64(uint64_t z) {
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

template <typename T>
__global__ void fill_kernel(T* p, size_t n, uint64_t seed, float mean, float scale) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
        const uint64_t h = splitmix64(seed ^ splitmix64(i));
        // Box-Muller from two 24-bit uniforms in (0, 1].
        const float u1 = (float((h >> 40) & 0xffffff) + 1.0f) * (1.0f / 16777216.0f);
        const float u2 = float((h >> 8) & 0xffffff) * (1.0f / 16777216.0f);
        const float z = sqrtf(-2.0f * logf(u1)) * cospif(2.0f * u2);
        p[i] = narrow<T>(mean + scale * z);
    }
}

}  // namespace

const char* dtype_name(Dtype d) { return d == Dtype::fp32 ? "fp32" : d == Dtype::bf16 ? "bf16" : "fp16"; }
int dtype_bytes(Dtype d) { return d == Dtype::fp32 ? 4 : 2; }

double rtol_for(Dtype dtype) {
    switch (dtype) {
        case Dtype::fp32: return 1e-4;
        case Dtype::bf16: return 2.5 * 0.00390625;     // unit roundoff 2^-8
        case Dtype::fp16: return 2.5 * 0.00048828125;  // unit roundoff 2^-11
    }
    return 0;
}

void fill_normal(Dtype dtype, void* p, size_t n, uint64_t seed, float mean, float scale) {
    const int grid = 132 * 8;
    switch (dtype) {
        case Dtype::fp32: fill_kernel<<<grid, 256>>>(static_cast<float*>(p), n, seed, mean, scale); break;
        case Dtype::bf16: fill_kernel<<<grid, 256>>>(static_cast<__nv_bfloat16*>(p), n, seed, mean, scale); break;
        case Dtype::fp16: fill_kernel<<<grid, 256>>>(static_cast<__half*>(p), n, seed, mean, scale); break;
    }
    CUDA_CHECK(cudaGetLastError());
}

void poison(void* p, size_t bytes) { CUDA_CHECK(cudaMemset(p, 0xff, bytes)); }

}  // namespace bench
