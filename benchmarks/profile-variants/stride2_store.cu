// Held-out variant of the sixth check (not used to fit the time model): the two-pass kernel with a coalesced pass 1
// and a pass 2 that walks the row strided by 2, the even elements in one loop and the odd ones in another: every
// output sector is filled in two halves a loop apart (stride2's stores with stride4_store's coalesced first pass).
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
__global__ void stride2_store_kernel(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y,
                                     int N, float eps) {
    const float* row = x + static_cast<long long>(blockIdx.x) * N;
    float* out = y + static_cast<long long>(blockIdx.x) * N;
    float ss = 0.0f;
    for (int c = threadIdx.x; c < N; c += BLOCK) ss += row[c] * row[c];
    const float inv = rsqrtf(variant_block_sum<BLOCK>(ss) / N + eps);
    for (int c = 2 * threadIdx.x; c < N; c += 2 * BLOCK) out[c] = row[c] * inv * w[c];
    for (int c = 2 * threadIdx.x + 1; c < N; c += 2 * BLOCK) out[c] = row[c] * inv * w[c];
}
}  // namespace

void launch_variant_f32(const float* x, const float* w, float* y, int M, int N, float eps, cudaStream_t s) {
    if (M > 0 && N > 0) stride2_store_kernel<256><<<M, 256, 0, s>>>(x, w, y, N, eps);
}
