// Lesson 04 · exercise `rmsnorm` (core) — fp32 RMSNorm in two passes, one thread block per row.
// ALTERNATIVE ANSWER (alt/rmsnorm_warp0_stores_inv_rms.cu): warp 0 finishes the reduction with a butterfly
// (__shfl_xor_sync), so all 32 of its lanes hold the same bits of the row's sum, and every one of them stores the
// same inv_rms to smem_inv_rms instead of thread 0 alone. Several threads storing one value to one address is not a
// race (compute-sanitizer's racecheck does not report it, measured on an H200): the hidden tests pass, the edit
// check flags the edits outside the blank.
//
// What to fill: the single blank `inv_rms`, the value thread 0 stores in `smem_inv_rms` once the block has reduced
// the row's sum of squares. Everything else is given; keep it as it is (edits outside the blank are vetoed).
//
// Entry point:
//   void launch_rmsnorm(const float* input, const float* weight, float* output,
//                       int M, int N, float eps, cudaStream_t stream);
//   input, output: device pointers to M x N floats, row-major, contiguous (row r starts at r * N).
//   weight: device pointer to N floats. eps: a small positive number (1e-5 or 1e-6 in practice).
//   For every row r and column j:
//       inv_rms[r]   = 1 / sqrt( (sum over k of input[r][k]^2) / N + eps )     (accumulated in fp32)
//       output[r][j] = input[r][j] * inv_rms[r] * weight[j]
//   Launches one block of BLOCK_SIZE = 256 threads per row on `stream` and returns without waiting.
#include <cuda_runtime.h>

namespace {

// Sum over the 32 lanes of a warp, entirely in registers. The butterfly leaves the total in every lane, and the same
// bits in all of them: lanes l and l ^ offset add the same two values (a + b == b + a exactly).
template <int BLOCK_SIZE>
__device__ __forceinline__ float warp_reduce_sum(float val) {
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
        val += __shfl_xor_sync(0xffffffffu, val, offset);
    }
    return val;
}

// Sum over the whole block. Each warp reduces its own values; lane 0 of every warp parks its result in shared
// memory; warp 0 then reduces those partials. The total is valid in every lane of warp 0.
template <int BLOCK_SIZE>
__device__ __forceinline__ float block_reduce_sum(float val) {
    constexpr int NUM_WARPS = (BLOCK_SIZE + 31) / 32;
    __shared__ float warp_partials[NUM_WARPS];

    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;

    val = warp_reduce_sum<BLOCK_SIZE>(val);
    if (lane == 0) {
        warp_partials[warp] = val;
    }
    // Warp 0 may only read the partials once every warp has written its own.
    __syncthreads();

    val = (threadIdx.x < NUM_WARPS) ? warp_partials[lane] : 0.0f;
    if (warp == 0) {
        val = warp_reduce_sum<BLOCK_SIZE>(val);
    }
    // Keeps a later call from overwriting warp_partials while warp 0 is still reading them.
    __syncthreads();
    return val;
}

// RMSNorm scales a row by the reciprocal of its root mean square. Unlike LayerNorm it subtracts no mean and adds no
// bias, so one reduction (the sum of squares) is enough.
template <int BLOCK_SIZE>
__global__ void rmsnorm_kernel(const float* __restrict__ input, const float* __restrict__ weight,
                               float* __restrict__ output, int M, int N, float eps) {
    const int row = blockIdx.x;
    const int tid = threadIdx.x;
    if (row >= M) return;

    // 64-bit offset: with M * N above 2^31 a 32-bit product would wrap and address another row.
    const long long row_offset = static_cast<long long>(row) * N;
    const float* row_in = input + row_offset;
    float* row_out = output + row_offset;

    // Pass 1: each thread walks the row with a stride of BLOCK_SIZE, so neighbouring threads read neighbouring
    // floats and every load instruction of a warp is coalesced.
    float local_sq_sum = 0.0f;
    for (int col = tid; col < N; col += BLOCK_SIZE) {
        const float x = row_in[col];
        local_sq_sum += x * x;
    }

    const float sq_sum = block_reduce_sum<BLOCK_SIZE>(local_sq_sum);

    // One scalar for the whole row, computed once and shared through shared memory.
    __shared__ float smem_inv_rms;
    if (tid < 32) {
        smem_inv_rms = rsqrtf(sq_sum / static_cast<float>(N) + eps);  // 32 stores of the same value
    }
    // ANCHOR: barrier
    // Without this barrier threads of other warps could read smem_inv_rms before warp 0 has written it.
    __syncthreads();

    const float inv_rms = smem_inv_rms;
    // ANCHOR_END: barrier

    // ANCHOR: pass2
    // Pass 2: read the row again (it is usually still in L2), scale, and write with the same coalesced pattern.
    for (int col = tid; col < N; col += BLOCK_SIZE) {
        row_out[col] = row_in[col] * inv_rms * weight[col];
    }
    // ANCHOR_END: pass2
}

}  // namespace

void launch_rmsnorm(const float* input, const float* weight, float* output, int M, int N, float eps,
                    cudaStream_t stream) {
    constexpr int BLOCK_SIZE = 256;
    // A grid of zero blocks is a launch error; an empty tensor simply has nothing to normalise.
    if (M <= 0 || N <= 0) return;
    rmsnorm_kernel<BLOCK_SIZE><<<M, BLOCK_SIZE, 0, stream>>>(input, weight, output, M, N, eps);
}
