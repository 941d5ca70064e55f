// Lesson 04 · exercise `rmsnorm_fast` (performance) — fp32 RMSNorm that reads each row from memory only once.
//
// The two-pass kernel of `rmsnorm` reads every input element twice. When a row fits in the registers of its block,
// the second read can be served from registers instead: each thread keeps its ITEMS elements in a small array during
// pass 1 and writes the output from that array. Rows too long for that fall back to the two-pass kernel.
//
// What to fill, in file order:
//   fast_inv_rms  (in row_inv_rms) the row's inverse RMS from the block's sum of squares, as in the core exercise;
//   cache_row  load this thread's ITEMS elements of the row into `cache` (zero where the column is past N) and
//              add their squares to local_sq_sum;
//   write_row  write this thread's output elements from `cache`, without touching memory past the row.
//
// Entry point:
//   void launch_rmsnorm_fast(const float* input, const float* weight, float* output,
//                            int M, int N, float eps, cudaStream_t stream);
//   Same contract as `launch_rmsnorm`: M x N fp32 rows, contiguous, weight of N floats, for every row r, column j
//       inv_rms[r] = 1 / sqrt( (sum over k of input[r][k]^2) / N + eps ),  output[r][j] = input[r][j] * inv_rms[r] * weight[j]
//   correct for every N >= 1: one pass for N <= 16384, two passes above. Runs on `stream`; returns without waiting.
#include <cub/cub.cuh>

#include <cuda_runtime.h>

namespace {

// Sum over the whole block, valid in thread 0 only: CUB's block reduction, the library one vLLM's kernels use (the
// block_reduce exercise builds one by hand from warp shuffles and shared memory). Called once per kernel: a second
// call would need a barrier before it reuses the shared storage.
template <int BLOCK_SIZE>
__device__ __forceinline__ float block_reduce_sum(float val) {
    using BlockReduce = cub::BlockReduce<float, BLOCK_SIZE>;
    __shared__ typename BlockReduce::TempStorage storage;
    return BlockReduce(storage).Sum(val);
}

// Computes the row's inverse RMS in thread 0 and hands it to every thread.
template <int BLOCK_SIZE>
__device__ __forceinline__ float row_inv_rms(float local_sq_sum, int N, float eps) {
    const float sq_sum = block_reduce_sum<BLOCK_SIZE>(local_sq_sum);
    __shared__ float smem_inv_rms;
    ______  // blank: fast_inv_rms
}

// One pass: requires N <= ITEMS * BLOCK_SIZE (the launcher guarantees it).
// `cache` lives in registers only if every index into it is a compile-time constant, which is why the loops over
// ITEMS must be fully unrolled; a loop indexed at run time would place the array in (slow) local memory.
// __launch_bounds__ asks ptxas for a register count at which 2048 threads (two 1024-thread blocks) fit on one
// multiprocessor: at 36 registers a thread, what the 1024 x 8 instance takes unbounded, only one block fits.
template <int BLOCK_SIZE, int ITEMS>
__global__ void __launch_bounds__(BLOCK_SIZE, 2048 / BLOCK_SIZE)
    rmsnorm_cached_kernel(const float* __restrict__ input, const float* __restrict__ weight,
                          float* __restrict__ output, int M, int N, float eps) {
    const int row = blockIdx.x;
    const int tid = threadIdx.x;
    if (row >= M) return;

    const long long row_offset = static_cast<long long>(row) * N;
    const float* row_in = input + row_offset;
    float* row_out = output + row_offset;

    float cache[ITEMS];
    float local_sq_sum = 0.0f;
    // Element i of this thread is column tid + i * BLOCK_SIZE: at every i a warp touches 32 consecutive floats.
    ______  // blank: cache_row

    const float inv_rms = row_inv_rms<BLOCK_SIZE>(local_sq_sum, N, eps);

    ______  // blank: write_row
}

// Two passes, for rows longer than the register cache can hold.
template <int BLOCK_SIZE>
__global__ void rmsnorm_two_pass_kernel(const float* __restrict__ input, const float* __restrict__ weight,
                                        float* __restrict__ output, int M, int N, float eps) {
    const int row = blockIdx.x;
    const int tid = threadIdx.x;
    if (row >= M) return;

    const long long row_offset = static_cast<long long>(row) * N;
    const float* row_in = input + row_offset;
    float* row_out = output + row_offset;

    float local_sq_sum = 0.0f;
    for (int col = tid; col < N; col += BLOCK_SIZE) {
        const float x = row_in[col];
        local_sq_sum = fmaf(x, x, local_sq_sum);  // x * x + sum, rounded once (what the compiler emits for +=)
    }
    const float inv_rms = row_inv_rms<BLOCK_SIZE>(local_sq_sum, N, eps);
    for (int col = tid; col < N; col += BLOCK_SIZE) {
        row_out[col] = row_in[col] * inv_rms * weight[col];
    }
}

template <int BLOCK_SIZE, int ITEMS>
void launch_cached(const float* input, const float* weight, float* output, int M, int N, float eps,
                   cudaStream_t stream) {
    rmsnorm_cached_kernel<BLOCK_SIZE, ITEMS><<<M, BLOCK_SIZE, 0, stream>>>(input, weight, output, M, N, eps);
}

}  // namespace

void launch_rmsnorm_fast(const float* input, const float* weight, float* output, int M, int N, float eps,
                         cudaStream_t stream) {
    if (M <= 0 || N <= 0) return;
    // The smallest cache that holds the row: few items per thread keeps register pressure (and so occupancy) good;
    // long rows get 1024 threads so that no thread holds more than 16 floats.
    if (N <= 256) {
        launch_cached<256, 1>(input, weight, output, M, N, eps, stream);
    } else if (N <= 512) {
        launch_cached<256, 2>(input, weight, output, M, N, eps, stream);
    } else if (N <= 1024) {
        launch_cached<256, 4>(input, weight, output, M, N, eps, stream);
    } else if (N <= 2048) {
        launch_cached<256, 8>(input, weight, output, M, N, eps, stream);
    } else if (N <= 4096) {
        launch_cached<512, 8>(input, weight, output, M, N, eps, stream);
    } else if (N <= 8192) {
        launch_cached<1024, 8>(input, weight, output, M, N, eps, stream);
    } else if (N <= 16384) {
        launch_cached<1024, 16>(input, weight, output, M, N, eps, stream);
    } else {
        rmsnorm_two_pass_kernel<1024><<<M, 1024, 0, stream>>>(input, weight, output, M, N, eps);
    }
}
