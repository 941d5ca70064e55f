// Lesson 04 · exercise `block_reduce` — the reduction inside RMSNorm, built from warp shuffles and shared memory.
//
// What to fill, in file order:
//   warp_shuffle  the loop that leaves the sum of a warp's 32 values in EVERY lane (a butterfly of __shfl_xor_sync);
//   cross_warp    lane 0 of each warp stores its warp's sum, the block waits, and the first warp adds those partials;
//   broadcast     the block total, known to the first warp, is handed to every thread of the block.
//
// Entry point:
//   void launch_block_sum(const float* input, float* totals, int M, int N, int block_size, cudaStream_t stream);
//   input: device pointer to M x N floats, row-major, contiguous. totals: device pointer to M * block_size floats.
//   block_size is one of 32, 64, 128, 256, 512, 1024 (any other value launches nothing).
//   One block of block_size threads per row; every thread t of row r writes the row's sum,
//       totals[r * block_size + t] = sum over k of input[r][k]        (fp32, in any order of additions)
//   so that a thread which did not receive the total is visible. Runs on `stream` and returns without waiting.
#include <cuda_runtime.h>

namespace {

constexpr unsigned kFullMask = 0xffffffffu;  // all 32 lanes take part in every shuffle

// Sum over the 32 lanes of a warp; on return every lane holds the same total.
__device__ __forceinline__ float warp_allreduce_sum(float val) {
    ______  // blank: warp_shuffle
    return val;
}

// ANCHOR: block_allreduce
// Sum over a whole block of BLOCK_SIZE threads (a multiple of 32); on return every thread holds the total.
template <int BLOCK_SIZE>
__device__ float block_allreduce_sum(float val) {
    static_assert(BLOCK_SIZE % 32 == 0 && BLOCK_SIZE <= 1024, "whole warps, at most 1024 threads");
    constexpr int NUM_WARPS = BLOCK_SIZE / 32;

    val = warp_allreduce_sum(val);
    // A single warp needs no shared memory: the butterfly already left the total in every lane.
    if constexpr (NUM_WARPS == 1) {
        return val;
    }

    __shared__ float warp_partials[NUM_WARPS];
    __shared__ float block_total;
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;

    ______  // blank: cross_warp

    ______  // blank: broadcast
    return val;
}
// ANCHOR_END: block_allreduce

template <int BLOCK_SIZE>
__global__ void block_sum_kernel(const float* __restrict__ input, float* __restrict__ totals, int M, int N) {
    const int row = blockIdx.x;
    if (row >= M) return;

    const float* row_in = input + static_cast<long long>(row) * N;
    float partial = 0.0f;
    for (int col = threadIdx.x; col < N; col += BLOCK_SIZE) {
        partial += row_in[col];
    }

    const float total = block_allreduce_sum<BLOCK_SIZE>(partial);
    totals[static_cast<long long>(row) * BLOCK_SIZE + threadIdx.x] = total;
}

template <int BLOCK_SIZE>
void launch_with(const float* input, float* totals, int M, int N, cudaStream_t stream) {
    block_sum_kernel<BLOCK_SIZE><<<M, BLOCK_SIZE, 0, stream>>>(input, totals, M, N);
}

}  // namespace

void launch_block_sum(const float* input, float* totals, int M, int N, int block_size, cudaStream_t stream) {
    if (M <= 0) return;
    // The block size must be a compile-time constant for the shared arrays, so each allowed size gets its own kernel.
    switch (block_size) {
        case 32: launch_with<32>(input, totals, M, N, stream); break;
        case 64: launch_with<64>(input, totals, M, N, stream); break;
        case 128: launch_with<128>(input, totals, M, N, stream); break;
        case 256: launch_with<256>(input, totals, M, N, stream); break;
        case 512: launch_with<512>(input, totals, M, N, stream); break;
        case 1024: launch_with<1024>(input, totals, M, N, stream); break;
        default: break;
    }
}
