// Held-out variant of the fifth check (not used to fit the time model): bf16, one warp per row, four rows per block
// of 128 threads, 16-byte loads and stores (8 bf16 per lane: 16 sectors per request, 4 lines), the sum by shuffles
// alone (no shared memory, no barrier). The warp re-reads its row after the shuffles: the reuse the per-warp traffic
// clock of the L1 and L2 models is about (docs/emulator.md, Profiler). Requires N % 8 == 0 and 16-byte aligned rows
// (the driver's shapes are).
#include <cuda_bf16.h>
#include <cuda_runtime.h>

namespace {
struct alignas(16) Oct {
    __nv_bfloat16 v[8];
};

__global__ void bf16_warp_row16_kernel(const __nv_bfloat16* __restrict__ x, const __nv_bfloat16* __restrict__ w,
                                       __nv_bfloat16* __restrict__ y, int M, int N, float eps) {
    const int r = blockIdx.x * 4 + (threadIdx.x >> 5), lane = threadIdx.x & 31;
    if (r >= M) return;
    const Oct* row = reinterpret_cast<const Oct*>(x + static_cast<long long>(r) * N);
    const Oct* wo = reinterpret_cast<const Oct*>(w);
    Oct* out = reinterpret_cast<Oct*>(y + static_cast<long long>(r) * N);
    float ss = 0.0f;
    for (int q = lane; q < N / 8; q += 32) {
        const Oct a = row[q];
        for (int k = 0; k < 8; ++k) {
            const float v = __bfloat162float(a.v[k]);
            ss += v * v;
        }
    }
    for (int o = 16; o > 0; o >>= 1) ss += __shfl_xor_sync(0xffffffffu, ss, o);
    const float inv = rsqrtf(ss / N + eps);
    for (int q = lane; q < N / 8; q += 32) {
        const Oct a = row[q], b = wo[q];
        Oct o;  // through a local, so that the emulator sees the store (docs/emulator.md, Profiler: limits)
        for (int k = 0; k < 8; ++k) {
            const __nv_bfloat16 n = __float2bfloat16(__bfloat162float(a.v[k]) * inv);
            o.v[k] = __float2bfloat16(__bfloat162float(n) * __bfloat162float(b.v[k]));
        }
        out[q] = o;
    }
}
}  // namespace

void launch_variant_bf16(const __nv_bfloat16* x, const __nv_bfloat16* w, __nv_bfloat16* y, int M, int N, float eps,
                         cudaStream_t s) {
    if (M > 0 && N > 0) bf16_warp_row16_kernel<<<(M + 3) / 4, 128, 0, s>>>(x, w, y, M, N, eps);
}
