// Held-out variant of the third check (not used to fit the time model): one warp per row, four rows per block of
// 128 threads, 16-byte float4 loads and stores, the sum by shuffles alone (no shared memory, no barrier). Requires
// N % 4 == 0 and 16-byte aligned rows (the driver's shapes are).
#include <cuda_runtime.h>

namespace {
__global__ void warp_row_vec4_kernel(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y,
                                     int M, int N, float eps) {
    const int r = blockIdx.x * 4 + (threadIdx.x >> 5), lane = threadIdx.x & 31;
    if (r >= M) return;
    const float4* row = reinterpret_cast<const float4*>(x + static_cast<long long>(r) * N);
    const float4* wp = reinterpret_cast<const float4*>(w);
    float4* out = reinterpret_cast<float4*>(y + static_cast<long long>(r) * N);
    float ss = 0.0f;
    for (int p = lane; p < N / 4; p += 32) {
        const float4 a = row[p];
        ss += a.x * a.x + a.y * a.y + a.z * a.z + a.w * a.w;
    }
    for (int o = 16; o > 0; o >>= 1) ss += __shfl_xor_sync(0xffffffffu, ss, o);
    const float inv = rsqrtf(ss / N + eps);
    for (int p = lane; p < N / 4; p += 32) {
        const float4 a = row[p], g = wp[p];
        float4 o;  // through a local, so that the emulator sees the store (docs/emulator.md, Profiler: limits)
        o.x = a.x * inv * g.x, o.y = a.y * inv * g.y, o.z = a.z * inv * g.z, o.w = a.w * inv * g.w;
        out[p] = o;
    }
}
}  // namespace

void launch_variant_f32(const float* x, const float* w, float* y, int M, int N, float eps, cudaStream_t s) {
    if (M > 0 && N > 0) warp_row_vec4_kernel<<<(M + 3) / 4, 128, 0, s>>>(x, w, y, M, N, eps);
}
