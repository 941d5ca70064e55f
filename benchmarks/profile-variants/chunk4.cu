// Held-out variant of the third check (not used to fit the time model): each thread reads four consecutive floats
// with four scalar loads, then moves on by the block's width (a loop unrolled by hand the wrong way round). The 32
// lanes of each load are 16 bytes apart: 16 sectors in 4 lines per request, and the next three loads find the same
// sectors in L1. Requires N % 4 == 0.
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
__global__ void chunk4_kernel(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y, int N,
                              float eps) {
    const float* row = x + static_cast<long long>(blockIdx.x) * N;
    float* out = y + static_cast<long long>(blockIdx.x) * N;
    float ss = 0.0f;
    for (int base = threadIdx.x * 4; base < N; base += BLOCK * 4)
        for (int k = 0; k < 4; ++k) ss += row[base + k] * row[base + k];
    const float inv = rsqrtf(variant_block_sum<BLOCK>(ss) / N + eps);
    for (int base = threadIdx.x * 4; base < N; base += BLOCK * 4)
        for (int k = 0; k < 4; ++k) out[base + k] = row[base + k] * inv * w[base + k];
}
}  // namespace

void launch_variant_f32(const float* x, const float* w, float* y, int M, int N, float eps, cudaStream_t s) {
    if (M > 0 && N > 0) chunk4_kernel<256><<<M, 256, 0, s>>>(x, w, y, N, eps);
}
