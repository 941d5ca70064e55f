// Lesson 05 · exercise `welford` — both statistics of a row in ONE pass: Welford's online update in every thread,
// then Chan's parallel merge of (count, mean, M2) triples as a warp reduction and a block reduction.
//
// What to fill, in file order:
//   chan_merge      the body of merge(a, b): the triple of the union of two disjoint sets of elements;
//   warp_merge      the loop that merges the 32 triples of a warp into lane 0, through __shfl_down_sync;
//   block_merge     lane 0 of every warp parks its triple in shared memory, the block waits, and warp 0 merges those
//                   triples so that lane 0 of warp 0 holds the row's triple;
//   welford_update  the body of the per-thread loop: read element col as x and fold it into this thread's triple;
//   rstd            the reciprocal standard deviation from the row's triple.
//
// Entry point:
//   void launch_layernorm_welford(const float* input, const float* weight, const float* bias, float* output,
//                                 float* mean, float* rstd, int M, int N, float eps, cudaStream_t stream);
//   input, output: device pointers to M x N floats, row-major, contiguous. weight, bias: N floats.
//   mean, rstd: device pointers to M floats each; the kernel writes the row statistics there (what a LayerNorm's
//   backward pass reuses; nothing is written when N = 0). For every row r and column j, in fp32:
//       mean[r]      = (sum over k of input[r][k]) / N
//       rstd[r]      = 1 / sqrt( (sum over k of (input[r][k] - mean[r])^2) / N + eps )     (biased variance)
//       output[r][j] = (input[r][j] - mean[r]) * rstd[r] * weight[j] + bias[j]
//   The row is read once for the statistics and once more for the output. One block of 256 threads per row,
//   launched on `stream`; returns without waiting.
#include <cuda_runtime.h>

namespace {

constexpr unsigned kFullMask = 0xffffffffu;

// The running statistics of a set of elements: how many, their mean, and M2 = the sum of squared distances from
// that mean. count is a float because every formula below divides by it.
struct Stats {
    float count;
    float mean;
    float m2;
};

// The triple of the union of two disjoint sets (Chan, Golub and LeVeque). Either set may be empty, which is how
// threads without elements take part in the reductions.
__device__ __forceinline__ Stats merge(Stats a, Stats b) {
    ______  // blank: chan_merge
}

// Merge over the 32 lanes of a warp; the warp's triple ends in lane 0 (other lanes hold partial merges).
__device__ __forceinline__ Stats warp_reduce_stats(Stats s) {
    ______  // blank: warp_merge
    return s;
}

// Merge over the whole block; the block's triple is returned to every thread.
template <int BLOCK_SIZE>
__device__ Stats block_reduce_stats(Stats s) {
    constexpr int NUM_WARPS = (BLOCK_SIZE + 31) / 32;
    __shared__ Stats warp_stats[NUM_WARPS];
    __shared__ Stats row_stats;
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;

    s = warp_reduce_stats(s);
    ______  // blank: block_merge
    if (threadIdx.x == 0) {
        row_stats = s;
    }
    __syncthreads();
    return row_stats;
}

template <int BLOCK_SIZE>
__global__ void layernorm_welford_kernel(const float* __restrict__ input, const float* __restrict__ weight,
                                         const float* __restrict__ bias, float* __restrict__ output,
                                         float* __restrict__ mean_out, float* __restrict__ rstd_out, int M, int N,
                                         float eps) {
    const int row = blockIdx.x;
    const int tid = threadIdx.x;
    if (row >= M) return;

    const long long row_offset = static_cast<long long>(row) * N;
    const float* row_in = input + row_offset;
    float* row_out = output + row_offset;

    // One pass: every thread keeps the triple of the elements it has seen so far.
    Stats s = {0.0f, 0.0f, 0.0f};
    for (int col = tid; col < N; col += BLOCK_SIZE) {
        ______  // blank: welford_update
    }

    const Stats total = block_reduce_stats<BLOCK_SIZE>(s);
    const float mean = total.mean;
    const float rstd = ______;
    if (tid == 0) {
        mean_out[row] = mean;
        rstd_out[row] = rstd;
    }

    for (int col = tid; col < N; col += BLOCK_SIZE) {
        const float x_hat = rstd * (row_in[col] - mean);  // the normalized element, before the affine part
        row_out[col] = x_hat * weight[col] + bias[col];
    }
}

}  // namespace

void launch_layernorm_welford(const float* input, const float* weight, const float* bias, float* output, float* mean,
                              float* rstd, int M, int N, float eps, cudaStream_t stream) {
    constexpr int BLOCK_SIZE = 256;
    if (M <= 0 || N <= 0) return;
    layernorm_welford_kernel<BLOCK_SIZE><<<M, BLOCK_SIZE, 0, stream>>>(input, weight, bias, output, mean, rstd, M, N,
                                                                       eps);
}
