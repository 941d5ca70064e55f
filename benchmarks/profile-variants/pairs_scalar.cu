// Slow variant: thread t handles the adjacent columns 2t and 2t+1 of each 512-column tile with two scalar loads.
// Each load instruction's lanes are 8 bytes apart: 8 sectors per request for 128 useful bytes (ideal 4); the
// second instruction re-touches the same sectors.

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
__global__ void pairs_kernel(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y, int N,
                             float eps) {
    const float* row = x + static_cast<long long>(blockIdx.x) * N;
    float* out = y + static_cast<long long>(blockIdx.x) * N;
    float ss = 0.0f;
    for (int base = 0; base < N; base += 2 * BLOCK) {
        const int c = base + 2 * threadIdx.x;
        if (c < N) ss += row[c] * row[c];
        if (c + 1 < N) ss += row[c + 1] * row[c + 1];
    }
    const float inv = rsqrtf(variant_block_sum<BLOCK>(ss) / N + eps);
    for (int base = 0; base < N; base += 2 * BLOCK) {
        const int c = base + 2 * threadIdx.x;
        if (c < N) out[c] = row[c] * inv * w[c];
        if (c + 1 < N) out[c + 1] = row[c + 1] * inv * w[c + 1];
    }
}
}  // namespace

void launch_variant_f32(const float* x, const float* w, float* y, int M, int N, float eps, cudaStream_t s) {
    if (M > 0 && N > 0) pairs_kernel<256><<<M, 256, 0, s>>>(x, w, y, N, eps);
}
