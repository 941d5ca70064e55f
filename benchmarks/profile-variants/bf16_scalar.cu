// Slow variant (bf16): 2-byte loads where 16 are possible. Each lane loads one __nv_bfloat16 per instruction: a
// warp's request moves 64 bytes (2 sectors), and the row takes 8 times as many load instructions as with the 16-byte
// loads of bf16_vec16.cu. Each element is first copied into a local: the emulator sees a bf16 load only then (g++
// does not instrument a 2-byte struct read straight into a call's by-value argument; docs/emulator.md, Profiler).
#include <cuda_bf16.h>

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
__global__ void bf16_scalar_kernel(const __nv_bfloat16* __restrict__ x, const __nv_bfloat16* __restrict__ w,
                                   __nv_bfloat16* __restrict__ y, int N, float eps) {
    const __nv_bfloat16* row = x + static_cast<long long>(blockIdx.x) * N;
    __nv_bfloat16* out = y + static_cast<long long>(blockIdx.x) * N;
    float ss = 0.0f;
    for (int c = threadIdx.x; c < N; c += BLOCK) {
        const __nv_bfloat16 e = row[c];
        const float v = __bfloat162float(e);
        ss += v * v;
    }
    const float inv = rsqrtf(variant_block_sum<BLOCK>(ss) / N + eps);
    for (int c = threadIdx.x; c < N; c += BLOCK) {
        const __nv_bfloat16 e = row[c], g = w[c];
        const __nv_bfloat16 n = __float2bfloat16(__bfloat162float(e) * inv);
        const __nv_bfloat16 o = __float2bfloat16(__bfloat162float(n) * __bfloat162float(g));
        out[c] = o;
    }
}
}  // namespace

void launch_variant_bf16(const __nv_bfloat16* x, const __nv_bfloat16* w, __nv_bfloat16* y, int M, int N, float eps,
                         cudaStream_t s) {
    if (M > 0 && N > 0) bf16_scalar_kernel<256><<<M, 256, 0, s>>>(x, w, y, N, eps);
}
