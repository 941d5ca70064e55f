// Held-out variant (not used to fit the time model): thread t of a 256-column tile takes column (t + 1) mod 256, so
// each warp's 32 lanes read 32 consecutive floats starting 4 bytes past a 128-byte boundary: 5 sectors per request
// instead of 4 (the last warp wraps around to the tile's first column: also 5). Every column is still read once.
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
__global__ void misaligned_kernel(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y,
                                  int N, float eps) {
    const float* row = x + static_cast<long long>(blockIdx.x) * N;
    float* out = y + static_cast<long long>(blockIdx.x) * N;
    const int shift = (threadIdx.x + 1) % BLOCK;
    float ss = 0.0f;
    for (int base = 0; base < N; base += BLOCK) {
        const int c = base + shift;
        if (c < N) ss += row[c] * row[c];
    }
    const float inv = rsqrtf(variant_block_sum<BLOCK>(ss) / N + eps);
    for (int base = 0; base < N; base += BLOCK) {
        const int c = base + shift;
        if (c < N) out[c] = row[c] * inv * w[c];
    }
}
}  // namespace

void launch_variant_f32(const float* x, const float* w, float* y, int M, int N, float eps, cudaStream_t s) {
    if (M > 0 && N > 0) misaligned_kernel<256><<<M, 256, 0, s>>>(x, w, y, N, eps);
}
