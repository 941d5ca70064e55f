// Lesson 05 · exercise `bug_hunt` — a LayerNorm that shipped, passed its unit tests, and is wrong.
//
// The kernel below is the one that was merged: its statistics take one pass that sums x and x*x, then
// var = E[x^2] - E[x]^2. It is short, it reads the row only once for its statistics, and on the usual test inputs
// (zero-mean rows of magnitude 1) it agrees with a float64 reference to six digits. Then it met activations with a
// large mean and a small spread. Grade it as it is (`make grade-05 EX=bug_hunt` shows the failing rows), find out why
// it fails there (section 2 of the lesson), and rewrite the statistics between `// fix:` and `// end fix` so that
// they are accurate for every row.
//
// What to fix:
//   row_stats   this thread block's row statistics, left in two constants that EVERY thread of the block holds:
//               `mean` (the row's mean) and `var` (its biased variance, sum of (x - mean)^2 / N), both float, both in
//               fp32. Use block_allreduce_sum (given) for every sum over the row. The code after the region, which
//               uses mean and var, is correct and must stay as it is.
//
// Entry point:
//   void launch_layernorm_bughunt(const float* input, const float* weight, const float* bias, float* output,
//                                 int M, int N, float eps, cudaStream_t stream);
//   The contract of `launch_layernorm` (layernorm.cu): M x N fp32 rows, contiguous; weight, bias of N floats;
//       output[r][j] = (input[r][j] - mean[r]) / sqrt(var[r] + eps) * weight[j] + bias[j]
//   with mean and the biased variance as accurate as fp32 allows for EVERY row, whatever its mean.
//   One block of 256 threads per row, launched on `stream`; returns without waiting.
#include <cuda_runtime.h>

namespace {

constexpr unsigned kFullMask = 0xffffffffu;

__device__ __forceinline__ float warp_reduce_sum(float val) {
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
        val += __shfl_down_sync(kFullMask, val, offset);
    }
    return val;
}

// Sum over the whole block, returned to every thread (as in the core exercise). Safe to call several times in a row.
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

template <int BLOCK_SIZE>
__global__ void layernorm_bughunt_kernel(const float* __restrict__ input, const float* __restrict__ weight,
                                         const float* __restrict__ bias, float* __restrict__ output, int M, int N,
                                         float eps) {
    const int row = blockIdx.x;
    const int tid = threadIdx.x;
    if (row >= M) return;

    const long long row_offset = static_cast<long long>(row) * N;
    const float* row_in = input + row_offset;
    float* row_out = output + row_offset;
    const float inv_n = 1.0f / static_cast<float>(N);

    // fix: row_stats (edit only down to 'end fix')
    float local_sum = 0.0f, local_sq_sum = 0.0f;
    for (int col = tid; col < N; col += BLOCK_SIZE) {
        local_sq_sum = fmaf(row_in[col], row_in[col], local_sq_sum);  // one rounding per square, not two
        local_sum += row_in[col];
    }
    const float mean = block_allreduce_sum<BLOCK_SIZE>(local_sum) * inv_n;
    const float mean_sq = block_allreduce_sum<BLOCK_SIZE>(local_sq_sum) * inv_n;
    const float var = fmaxf(mean_sq - mean * mean, 0.0f);  // "rounding can make it slightly negative"
    // end fix

    const float rstd = rsqrtf(var + eps);
    for (int col = tid; col < N; col += BLOCK_SIZE) {
        const float x_hat = (row_in[col] - mean) * rstd;  // the normalized element, before the affine part
        row_out[col] = x_hat * weight[col] + bias[col];
    }
}

}  // namespace

void launch_layernorm_bughunt(const float* input, const float* weight, const float* bias, float* output, int M, int N,
                              float eps, cudaStream_t stream) {
    constexpr int BLOCK_SIZE = 256;
    if (M <= 0 || N <= 0) return;
    layernorm_bughunt_kernel<BLOCK_SIZE><<<M, BLOCK_SIZE, 0, stream>>>(input, weight, bias, output, M, N, eps);
}
