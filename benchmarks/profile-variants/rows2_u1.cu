// Held-out variant of the eighth check (not used to fit the time model): rows2 (the coalesced two-pass kernel, each
// block of 256 threads two rows one after the other, eight warps a block, up to eight blocks an SM) with its row loops
// kept rolled (#pragma unroll 1): one load per warp in flight per iteration instead of four, with up to 64 warps per
// SM to hide it (the contrast where the loads in flight should matter little).
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
__global__ void rows2_kernel(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y, int M,
                             int N, float eps) {
    for (int r = blockIdx.x * 2; r < min(M, blockIdx.x * 2 + 2); ++r) {
        const float* row = x + static_cast<long long>(r) * N;
        float* out = y + static_cast<long long>(r) * N;
        float ss = 0.0f;
#pragma unroll 1
        for (int c = threadIdx.x; c < N; c += BLOCK) ss += row[c] * row[c];
        const float inv = rsqrtf(variant_block_sum<BLOCK>(ss) / N + eps);
#pragma unroll 1
        for (int c = threadIdx.x; c < N; c += BLOCK) out[c] = row[c] * inv * w[c];
    }
}
}  // namespace

void launch_variant_f32(const float* x, const float* w, float* y, int M, int N, float eps, cudaStream_t s) {
    if (M > 0 && N > 0) rows2_kernel<256><<<(M + 1) / 2, 256, 0, s>>>(x, w, y, M, N, eps);
}
