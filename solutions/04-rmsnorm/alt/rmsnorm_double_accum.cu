// Lesson 04 · exercise `rmsnorm` (core).
// ALTERNATIVE ANSWER (alt/rmsnorm_double_accum.cu): squares are accumulated and reduced in double precision (the
// shuffles move doubles), and the final scale is rounded to float once. More accurate than required and slower on
// GPUs with few fp64 units; the contract only asks for at least fp32 accumulation. Edits outside the blank.
#include <cuda_runtime.h>

namespace {

__device__ __forceinline__ double warp_sum(double v) {
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

template <int BLOCK_SIZE>
__global__ void rmsnorm_kernel(const float* __restrict__ input, const float* __restrict__ weight,
                               float* __restrict__ output, int M, int N, float eps) {
    constexpr int NUM_WARPS = BLOCK_SIZE / 32;
    __shared__ double warp_partials[NUM_WARPS];
    __shared__ float smem_inv_rms;

    const int row = blockIdx.x;
    if (row >= M) return;
    const long long row_offset = static_cast<long long>(row) * N;
    const float* row_in = input + row_offset;
    float* row_out = output + row_offset;

    double local = 0.0;
    for (int col = threadIdx.x; col < N; col += BLOCK_SIZE) {
        const double x = row_in[col];
        local += x * x;
    }
    local = warp_sum(local);
    if ((threadIdx.x & 31) == 0) warp_partials[threadIdx.x >> 5] = local;
    __syncthreads();
    if (threadIdx.x < 32) {
        double total = (threadIdx.x < NUM_WARPS) ? warp_partials[threadIdx.x] : 0.0;
        total = warp_sum(total);
        if (threadIdx.x == 0) {
            smem_inv_rms = static_cast<float>(1.0 / sqrt(total / N + static_cast<double>(eps)));
        }
    }
    __syncthreads();
    const float inv_rms = smem_inv_rms;
    for (int col = threadIdx.x; col < N; col += BLOCK_SIZE) {
        row_out[col] = row_in[col] * inv_rms * weight[col];
    }
}

}  // namespace

void launch_rmsnorm(const float* input, const float* weight, float* output, int M, int N, float eps,
                    cudaStream_t stream) {
    constexpr int BLOCK_SIZE = 256;
    if (M <= 0 || N <= 0) return;
    rmsnorm_kernel<BLOCK_SIZE><<<M, BLOCK_SIZE, 0, stream>>>(input, weight, output, M, N, eps);
}
