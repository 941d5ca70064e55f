// Held-out variant of the eighth check (not used to fit the time model): warp_row4 (fp32, one warp for four rows one
// after the other, eight warps per block, scalar coalesced loads, shuffles only) with its two row loops unrolled by
// eight (#pragma unroll 8): the same accesses in the same order (the emulator's trace is warp_row4's), eight loads of
// 128 bytes per warp in flight per iteration where nvcc's default unrolling by four gives warp_row4 four (PTX).
#include <cuda_runtime.h>

namespace {
__global__ void warp_row4_kernel(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y, int M,
                                 int N, float eps) {
    const int lane = threadIdx.x & 31;
    const int first = (blockIdx.x * 8 + (threadIdx.x >> 5)) * 4;
    for (int r = first; r < first + 4 && r < M; ++r) {
        const float* row = x + static_cast<long long>(r) * N;
        float* out = y + static_cast<long long>(r) * N;
        float ss = 0.0f;
#pragma unroll 8
        for (int c = lane; c < N; c += 32) ss += row[c] * row[c];
        for (int o = 16; o > 0; o >>= 1) ss += __shfl_xor_sync(0xffffffffu, ss, o);
        const float inv = rsqrtf(ss / N + eps);
#pragma unroll 8
        for (int c = lane; c < N; c += 32) out[c] = row[c] * inv * w[c];
    }
}
}  // namespace

void launch_variant_f32(const float* x, const float* w, float* y, int M, int N, float eps, cudaStream_t s) {
    if (M > 0 && N > 0) warp_row4_kernel<<<(M + 31) / 32, 256, 0, s>>>(x, w, y, M, N, eps);
}
