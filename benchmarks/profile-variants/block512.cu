// Held-out variant of the fourth check (not used to fit the time model): the coalesced two-pass kernel with blocks
// of 512 threads (4 resident per SM: between the 8 blocks of 256 threads and block1024's 2, where two resident
// blocks hid little of each other's round trips).
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
__global__ void block512_kernel(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y, int N,
                                float eps) {
    const float* row = x + static_cast<long long>(blockIdx.x) * N;
    float* out = y + static_cast<long long>(blockIdx.x) * N;
    float ss = 0.0f;
    for (int c = threadIdx.x; c < N; c += BLOCK) ss += row[c] * row[c];
    const float inv = rsqrtf(variant_block_sum<BLOCK>(ss) / N + eps);
    for (int c = threadIdx.x; c < N; c += BLOCK) out[c] = row[c] * inv * w[c];
}
}  // namespace

void launch_variant_f32(const float* x, const float* w, float* y, int M, int N, float eps, cudaStream_t s) {
    if (M > 0 && N > 0) block512_kernel<512><<<M, 512, 0, s>>>(x, w, y, N, eps);
}
