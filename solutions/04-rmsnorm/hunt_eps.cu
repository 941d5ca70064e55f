// Lesson 04 · exercise `hunt_eps` (bug hunt) — per-row L2 normalisation whose eps sits in the wrong place.
//
// The kernel below scales every row to unit Euclidean length, the step that turns embeddings into vectors whose dot
// products are cosine similarities (and that QK-norm applies to attention heads). It looks finished and on most rows
// it gives the right numbers, yet it is wrong in one expression. Grade it as it is (`make grade-04 EX=hunt_eps`),
// read which tests fail and what their mismatch lines show (section 8 of the lesson, "eps outside the root": here
// no emulator report comes with them), and fix the kernel between `// fix:` and `// end fix`. Everything outside that
// region is correct; edits there are vetoed.
//
// Entry point:
//   void launch_l2_normalize(const float* input, float* output, int M, int N, float eps, cudaStream_t stream);
//   input, output: device pointers to M x N floats, row-major, contiguous (row r starts at r * N).
//   For every row r and column j:
//       ss[r]        = sum over k of input[r][k]^2                (the squared length, not a mean)
//       output[r][j] = input[r][j] / sqrt(ss[r] + eps)             (eps > 0 keeps a row of zeros at 0)
//   Launches one block of BLOCK_SIZE = 256 threads per row on `stream` and returns without waiting.
#include <cub/cub.cuh>

#include <cuda_runtime.h>

namespace {

template <int BLOCK_SIZE>
__global__ void l2_normalize_kernel(const float* __restrict__ input, float* __restrict__ output, int M, int N,
                                    float eps) {
    // CUB's block reduction hands the total to thread 0 only; thread 0 shares it through sum_sq_shared.
    using BlockReduce = cub::BlockReduce<float, BLOCK_SIZE>;
    __shared__ typename BlockReduce::TempStorage reduce_storage;
    __shared__ float sum_sq_shared;

    const int row = blockIdx.x;
    const int tid = threadIdx.x;
    if (row >= M) return;
    const long long row_offset = static_cast<long long>(row) * N;
    const float* row_in = input + row_offset;
    float* row_out = output + row_offset;

    float partial = 0.0f;
    for (int col = tid; col < N; col += BLOCK_SIZE) {
        partial += row_in[col] * row_in[col];
    }
    const float total = BlockReduce(reduce_storage).Sum(partial);
    if (tid == 0) {
        sum_sq_shared = total;
    }
    __syncthreads();
    const float sum_sq = sum_sq_shared;

    // BLANK:inv_norm
    // eps belongs under the root: it bounds the factor by 1/sqrt(eps) when the row's squared length is 0 or tiny.
    const float inv_norm = rsqrtf(sum_sq + eps);
    // STARTER
    //> const float inv_norm = rsqrtf(sum_sq) + eps;
    // END BLANK

    for (int col = tid; col < N; col += BLOCK_SIZE) {
        row_out[col] = row_in[col] * inv_norm;
    }
}

}  // namespace

void launch_l2_normalize(const float* input, float* output, int M, int N, float eps, cudaStream_t stream) {
    constexpr int BLOCK_SIZE = 256;
    if (M <= 0 || N <= 0) return;
    l2_normalize_kernel<BLOCK_SIZE><<<M, BLOCK_SIZE, 0, stream>>>(input, output, M, N, eps);
}
