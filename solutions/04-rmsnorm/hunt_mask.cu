// Lesson 04 · exercise `hunt_mask` (bug hunt) — rows centred on their mean, with a shuffle mask that names lanes a
// block does not have.
//
// The kernel below subtracts each row's mean from the row, for short rows (N <= 1024) held one element per thread,
// and launches as many threads as the row has elements, the way vLLM sizes its blocks (min(hidden size, 1024)).
// It passes every test whose row length is a multiple of 32, and it is wrong for the others. Grade it as it is
// (`make grade-04 EX=hunt_mask`), read what the emulator reports (section 8 of the lesson, "Reading the emulator's
// report"), and fix it in the three regions between `// fix:` and `// end fix`. Everything outside them is correct;
// edits there are vetoed.
//
// Entry point:
//   void launch_center_rows(const float* input, float* output, int M, int N, cudaStream_t stream);
//   input, output: device pointers to M x N floats, row-major, contiguous; 1 <= N <= 1024.
//   For every row r and column j:
//       output[r][j] = input[r][j] - (sum over k of input[r][k]) / N      (the sum in fp32, any order)
//   Launches one block per row on `stream` and returns without waiting.
#include <cuda_runtime.h>

namespace {

constexpr unsigned kAllLanes = 0xffffffffu;

__global__ void center_rows_kernel(const float* __restrict__ input, float* __restrict__ output, int M, int N) {
    __shared__ float warp_sums[32];
    __shared__ float row_mean;
    const int row = blockIdx.x;
    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int warp = tid >> 5;
    const int num_warps = (blockDim.x + 31) / 32;
    if (row >= M) return;
    const long long row_offset = static_cast<long long>(row) * N;

    // BLANK:lane_sums
    // The block is a whole number of warps, so every lane a shuffle names exists; lanes past the row add 0.
    const float x = tid < N ? input[row_offset + tid] : 0.0f;
    float s = x;
    s += __shfl_xor_sync(kAllLanes, s, 16);
    s += __shfl_xor_sync(kAllLanes, s, 8);
    s += __shfl_xor_sync(kAllLanes, s, 4);
    s += __shfl_xor_sync(kAllLanes, s, 2);
    s += __shfl_xor_sync(kAllLanes, s, 1);
    if (lane == 0) {
        warp_sums[warp] = s;
    }
    // STARTER
    //> const float x = input[row_offset + tid];
    //> float s = x;
    //> s += __shfl_xor_sync(kAllLanes, s, 16);
    //> s += __shfl_xor_sync(kAllLanes, s, 8);
    //> s += __shfl_xor_sync(kAllLanes, s, 4);
    //> s += __shfl_xor_sync(kAllLanes, s, 2);
    //> s += __shfl_xor_sync(kAllLanes, s, 1);
    //> if (lane == 0) {
    //>     warp_sums[warp] = s;
    //> }
    // END BLANK
    __syncthreads();
    if (tid == 0) {
        float total = 0.0f;
        for (int w = 0; w < num_warps; ++w) total += warp_sums[w];
        row_mean = total / static_cast<float>(N);
    }
    __syncthreads();
    // BLANK:lane_store
    if (tid < N) {
        output[row_offset + tid] = x - row_mean;
    }
    // STARTER
    //> output[row_offset + tid] = x - row_mean;
    // END BLANK
}

}  // namespace

void launch_center_rows(const float* input, float* output, int M, int N, cudaStream_t stream) {
    if (M <= 0 || N <= 0 || N > 1024) return;
    // BLANK:block_threads
    // Rounded up to whole warps: a block of N threads would end in a partial warp when N is not a multiple of 32.
    const int threads = (N + 31) / 32 * 32;
    // STARTER
    //> const int threads = N;
    // END BLANK
    center_rows_kernel<<<M, threads, 0, stream>>>(input, output, M, N);
}
