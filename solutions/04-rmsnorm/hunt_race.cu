// Lesson 04 · exercise `hunt_race` (bug hunt) — a per-row absmax scale with a race in its broadcast.
//
// The kernel below divides every row by its largest magnitude, the per-token scale that int8 and fp8 quantisation
// compute before they round. It looks finished and on a GPU it usually gives the right numbers, yet it is wrong: one
// line is missing. Grade it as it is (`make grade-04 EX=hunt_race`), read what the emulator reports (section 8 of the
// lesson, "Reading the emulator's report"), and fix the kernel between `// fix:` and `// end fix`. Everything outside
// that region is correct; edits there are vetoed.
//
// Entry point:
//   void launch_absmax_scale(const float* input, float* output, int M, int N, cudaStream_t stream);
//   input, output: device pointers to M x N floats, row-major, contiguous (row r starts at r * N).
//   For every row r and column j:
//       amax[r]      = max over k of |input[r][k]|
//       output[r][j] = input[r][j] / amax[r]        (0 for a row of zeros)
//   Launches one block of BLOCK_SIZE = 256 threads per row on `stream` and returns without waiting.
#include <cub/cub.cuh>

#include <cuda_runtime.h>

namespace {

// The reduction operator for CUB: the larger of two magnitudes. (CUB's own cub::Max is gone from CUDA 13's CCCL.)
struct MaxOp {
    __device__ __forceinline__ float operator()(float a, float b) const { return fmaxf(a, b); }
};

template <int BLOCK_SIZE>
__global__ void absmax_scale_kernel(const float* __restrict__ input, float* __restrict__ output, int M, int N) {
    // CUB's block reduction, as vLLM's kernels use it: every thread calls Reduce, and thread 0 alone receives the
    // result.
    using BlockReduce = cub::BlockReduce<float, BLOCK_SIZE>;
    __shared__ typename BlockReduce::TempStorage reduce_storage;
    __shared__ float inv_amax_shared;

    const int row = blockIdx.x;
    const int tid = threadIdx.x;
    if (row >= M) return;
    const long long row_offset = static_cast<long long>(row) * N;
    const float* row_in = input + row_offset;
    float* row_out = output + row_offset;

    float amax = 0.0f;
    for (int col = tid; col < N; col += BLOCK_SIZE) {
        amax = fmaxf(amax, fabsf(row_in[col]));
    }
    amax = BlockReduce(reduce_storage).Reduce(amax, MaxOp());

    // BLANK:scale_broadcast
    if (tid == 0) {
        inv_amax_shared = amax > 0.0f ? 1.0f / amax : 0.0f;
    }
    // Thread 0's store must be visible before any thread of the block reads the shared value.
    __syncthreads();
    const float inv_amax = inv_amax_shared;
    // STARTER
    //> if (tid == 0) {
    //>     inv_amax_shared = amax > 0.0f ? 1.0f / amax : 0.0f;
    //> }
    //> const float inv_amax = inv_amax_shared;
    // END BLANK

    for (int col = tid; col < N; col += BLOCK_SIZE) {
        row_out[col] = row_in[col] * inv_amax;
    }
}

}  // namespace

void launch_absmax_scale(const float* input, float* output, int M, int N, cudaStream_t stream) {
    constexpr int BLOCK_SIZE = 256;
    if (M <= 0 || N <= 0) return;
    absmax_scale_kernel<BLOCK_SIZE><<<M, BLOCK_SIZE, 0, stream>>>(input, output, M, N);
}
