// Lesson 05 · exercise `fused_add_layernorm` — residual add and LayerNorm in one kernel (bf16, fp32 statistics).
//
// What to fill, in file order:
//   residual_add   pass 1's loop body: add input and residual in fp32, round the sum to bf16, write it back to
//                  `residual`, and add the ROUNDED sum (widened again) to local_sum;
//   centered       pass 2's loop body: the squared distance of the written-back sum from the mean, into local_sq_sum;
//   normalize      pass 3's loop body: the output element from the written-back sum, rounded to bf16 once.
//
// Entry point:
//   void launch_fused_add_layernorm(const __nv_bfloat16* input, __nv_bfloat16* residual,
//                                   const __nv_bfloat16* weight, const __nv_bfloat16* bias,
//                                   __nv_bfloat16* output, int M, int N, float eps, cudaStream_t stream);
//   All pointers: device memory, row-major, contiguous; input, residual, output M x N; weight, bias N.
//   For every row r and column j, with bf16(.) rounding to nearest even and float(.) the exact widening:
//       s[r][j]        = bf16( float(input[r][j]) + float(residual[r][j]) )     written back to residual[r][j]
//       mean[r], rstd[r] as in `layernorm_half`, computed in fp32 from float(s[r][.])
//       output[r][j]   = bf16( (float(s[r][j]) - mean[r]) * rstd[r] * float(weight[j]) + float(bias[j]) )
//   The output normalizes exactly the sum that the next layer will read from `residual`, so a fused and an unfused
//   pipeline agree bit for bit. One block of 256 threads per row, launched on `stream`; returns without waiting.
#include <cuda_runtime.h>
#include <cuda_bf16.h>

namespace {

constexpr unsigned kFullMask = 0xffffffffu;

__device__ __forceinline__ float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }
__device__ __forceinline__ __nv_bfloat16 to_bf16(float v) { return __float2bfloat16_rn(v); }

__device__ __forceinline__ float warp_reduce_sum(float val) {
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
        val += __shfl_down_sync(kFullMask, val, offset);
    }
    return val;
}

// Sum over the whole block, returned to every thread (as in the core exercise).
template <int BLOCK_SIZE>
__device__ __forceinline__ float block_allreduce_sum(float val) {
    constexpr int NUM_WARPS = (BLOCK_SIZE + 31) / 32;
    __shared__ float warp_partials[NUM_WARPS];
    __shared__ float total;
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;

    val = warp_reduce_sum(val);
    if (lane == 0) warp_partials[warp] = val;
    __syncthreads();
    if (warp == 0) {
        val = (lane < NUM_WARPS) ? warp_partials[lane] : 0.0f;
        val = warp_reduce_sum(val);
        if (lane == 0) total = val;
    }
    __syncthreads();
    return total;
}

// Each element of residual is read and written by the same thread only (same column loop in every pass), so the
// later passes can read back what pass 1 wrote without a barrier; the block reductions in between add barriers
// anyway.
template <int BLOCK_SIZE>
__global__ void fused_add_layernorm_kernel(const __nv_bfloat16* __restrict__ input, __nv_bfloat16* __restrict__ residual,
                                           const __nv_bfloat16* __restrict__ weight,
                                           const __nv_bfloat16* __restrict__ bias, __nv_bfloat16* __restrict__ output,
                                           int M, int N, float eps) {
    const int row = blockIdx.x;
    const int tid = threadIdx.x;
    if (row >= M) return;

    const long long row_offset = static_cast<long long>(row) * N;
    const __nv_bfloat16* row_in = input + row_offset;
    __nv_bfloat16* row_res = residual + row_offset;
    __nv_bfloat16* row_out = output + row_offset;

    float local_sum = 0.0f;
    for (int col = tid; col < N; col += BLOCK_SIZE) {
        ______  // blank: residual_add
    }
    const float mean = block_allreduce_sum<BLOCK_SIZE>(local_sum) / static_cast<float>(N);

    float local_sq_sum = 0.0f;
    for (int col = tid; col < N; col += BLOCK_SIZE) {
        ______  // blank: centered
    }
    const float rstd = rsqrtf(block_allreduce_sum<BLOCK_SIZE>(local_sq_sum) / static_cast<float>(N) + eps);

    for (int col = tid; col < N; col += BLOCK_SIZE) {
        ______  // blank: normalize
    }
}

}  // namespace

void launch_fused_add_layernorm(const __nv_bfloat16* input, __nv_bfloat16* residual, const __nv_bfloat16* weight,
                                const __nv_bfloat16* bias, __nv_bfloat16* output, int M, int N, float eps,
                                cudaStream_t stream) {
    constexpr int BLOCK_SIZE = 256;
    if (M <= 0 || N <= 0) return;
    fused_add_layernorm_kernel<BLOCK_SIZE><<<M, BLOCK_SIZE, 0, stream>>>(input, residual, weight, bias, output, M, N,
                                                                         eps);
}
