// Held-out variant (not used to fit the time model): the two-pass kernel with 8-byte float2 loads and stores
// (8 sectors, 256 bytes, per request). Requires an even N and 8-byte aligned rows (the driver's shapes are).
// Block sum (the same in every variant, which differ only in their memory access pattern); the total is
// broadcast to every thread through shared memory.
#include <cuda_runtime.h>

template <int BLOCK>
__device__ __forceinline__ float variant_block_sum(float v) {
    __shared__ float partials[BLOCK / 32];
    __shared__ float total;
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if ((threadIdx.x & 31) == 0) partials[threadIdx.x >> 5] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = threadIdx.x < BLOCK / 32 ? partials[threadIdx.x] : 0.0f;
        for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
        if (threadIdx.x == 0) total = v;
    }
    __syncthreads();
    return total;
}

namespace {
template <int BLOCK>
__global__ void float2_kernel(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y, int N,
                              float eps) {
    const float2* row = reinterpret_cast<const float2*>(x + static_cast<long long>(blockIdx.x) * N);
    const float2* wp = reinterpret_cast<const float2*>(w);
    float2* out = reinterpret_cast<float2*>(y + static_cast<long long>(blockIdx.x) * N);
    float ss = 0.0f;
    for (int p = threadIdx.x; p < N / 2; p += BLOCK) {
        const float2 a = row[p];
        ss += a.x * a.x + a.y * a.y;
    }
    const float inv = rsqrtf(variant_block_sum<BLOCK>(ss) / N + eps);
    for (int p = threadIdx.x; p < N / 2; p += BLOCK) {
        const float2 a = row[p], g = wp[p];
        out[p] = make_float2(a.x * inv * g.x, a.y * inv * g.y);
    }
}
}  // namespace

void launch_variant_f32(const float* x, const float* w, float* y, int M, int N, float eps, cudaStream_t s) {
    if (M > 0 && N > 0) float2_kernel<256><<<M, 256, 0, s>>>(x, w, y, N, eps);
}
