// Lesson 05 · exercise `layernorm` (core) — fp32 LayerNorm in two statistics passes, one thread block per row.
//
// What to fill, in file order:
//   mean             pass 1: each thread's sum of its elements, the block's total, and the row's mean;
//   centered_square  the body of pass 2: add this element's squared distance from the mean to local_sq_sum;
//   rstd             the reciprocal standard deviation, from the block's total `sq_sum` of squared distances;
//   normalize        the output element: centred, scaled by rstd, multiplied by the weight, plus the bias.
// Everything else is given; keep it as it is (edits outside the blanks are vetoed).
//
// Entry point:
//   void launch_layernorm(const float* input, const float* weight, const float* bias, float* output,
//                         int M, int N, float eps, cudaStream_t stream);
//   input, output: device pointers to M x N floats, row-major, contiguous (row r starts at r * N).
//   weight, bias: device pointers to N floats. eps: a small positive number (1e-5 in practice).
//   For every row r and column j, with the statistics accumulated in fp32:
//       mean[r]      = (sum over k of input[r][k]) / N
//       var[r]       = (sum over k of (input[r][k] - mean[r])^2) / N        (the biased, population variance)
//       rstd[r]      = 1 / sqrt(var[r] + eps)
//       output[r][j] = (input[r][j] - mean[r]) * rstd[r] * weight[j] + bias[j]
//   Launches one block of BLOCK_SIZE = 256 threads per row on `stream` and returns without waiting.
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

// Sum over the whole block, returned to EVERY thread: lesson 04's reduction followed by its broadcast. Calling it
// twice in a row is safe: a warp can only overwrite warp_partials or total in the second call after every thread has
// passed the second call's first barrier, and so has read the first call's total.
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

// LayerNorm = RMSNorm plus a mean subtraction and a bias. Two statistics are needed, and this kernel computes them
// one after the other: first the mean, then the variance around it. Subtracting the mean BEFORE squaring keeps every
// term of the second sum as small as the spread of the row, which is what makes the variance accurate in fp32 even
// when the row's mean is large (section 2 of the lesson shows what the one-pass formula loses).
template <int BLOCK_SIZE>
__global__ void layernorm_kernel(const float* __restrict__ input, const float* __restrict__ weight,
                                 const float* __restrict__ bias, float* __restrict__ output, int M, int N,
                                 float eps) {
    const int row = blockIdx.x;
    const int tid = threadIdx.x;
    if (row >= M) return;

    // 64-bit offset: with M * N above 2^31 a 32-bit product would wrap and address another row.
    const long long row_offset = static_cast<long long>(row) * N;
    const float* row_in = input + row_offset;
    float* row_out = output + row_offset;

    // Pass 1: the sum of the row, coalesced strided loop as in lesson 04.
    // BLANK:mean
    float local_sum = 0.0f;
    for (int col = tid; col < N; col += BLOCK_SIZE) {
        local_sum += row_in[col];
    }
    const float mean = block_allreduce_sum<BLOCK_SIZE>(local_sum) / static_cast<float>(N);
    // END BLANK

    // Pass 2: the sum of squared distances from the mean (the row is read again, usually from L2).
    float local_sq_sum = 0.0f;
    for (int col = tid; col < N; col += BLOCK_SIZE) {
        // BLANK:centered_square
        const float d = row_in[col] - mean;
        local_sq_sum += d * d;
        // END BLANK
    }
    const float sq_sum = block_allreduce_sum<BLOCK_SIZE>(local_sq_sum);
    const float rstd = /*BLANK:rstd*/ rsqrtf(sq_sum / static_cast<float>(N) + eps) /*END*/;

    // Pass 3: normalize, scale and shift; every thread already holds mean and rstd.
    for (int col = tid; col < N; col += BLOCK_SIZE) {
        row_out[col] = /*BLANK:normalize*/ (row_in[col] - mean) * rstd * weight[col] + bias[col] /*END*/;
    }
}

}  // namespace

void launch_layernorm(const float* input, const float* weight, const float* bias, float* output, int M, int N,
                      float eps, cudaStream_t stream) {
    constexpr int BLOCK_SIZE = 256;
    // A grid of zero blocks is a launch error; an empty tensor simply has nothing to normalise.
    if (M <= 0 || N <= 0) return;
    layernorm_kernel<BLOCK_SIZE><<<M, BLOCK_SIZE, 0, stream>>>(input, weight, bias, output, M, N, eps);
}
