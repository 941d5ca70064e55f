// Lesson 04 · exercise `rmsnorm` (core).
// ALTERNATIVE ANSWER (alt/rmsnorm_cub.cu): the block reduction comes from CUB (cub::BlockReduce), as vLLM does it,
// instead of the hand-written warp-shuffle reduction. Same contract as solutions/04-rmsnorm/rmsnorm.cu:
//   output[r][j] = input[r][j] * rsqrt(sum_k input[r][k]^2 / N + eps) * weight[j], fp32, one block per row.
// It rewrites code outside the blank, so the edit check flags it; the hidden tests must pass.
#include <cuda_runtime.h>
#include <cub/cub.cuh>

namespace {

template <int BLOCK_SIZE>
__global__ void rmsnorm_kernel(const float* __restrict__ input, const float* __restrict__ weight,
                               float* __restrict__ output, int M, int N, float eps) {
    using BlockReduce = cub::BlockReduce<float, BLOCK_SIZE>;
    __shared__ typename BlockReduce::TempStorage reduce_storage;
    __shared__ float smem_inv_rms;

    const int row = blockIdx.x;
    if (row >= M) return;
    const long long row_offset = static_cast<long long>(row) * N;
    const float* row_in = input + row_offset;
    float* row_out = output + row_offset;

    float local_sq_sum = 0.0f;
    for (int col = threadIdx.x; col < N; col += BLOCK_SIZE) {
        local_sq_sum += row_in[col] * row_in[col];
    }
    // CUB's Sum is valid in thread 0 only, like the hand-written reduction.
    const float sq_sum = BlockReduce(reduce_storage).Sum(local_sq_sum);
    if (threadIdx.x == 0) {
        smem_inv_rms = rsqrtf(sq_sum / static_cast<float>(N) + eps);
    }
    __syncthreads();
    const float inv_rms = smem_inv_rms;
    for (int col = threadIdx.x; col < N; col += BLOCK_SIZE) {
        row_out[col] = row_in[col] * inv_rms * weight[col];
    }
}

}  // namespace

void launch_rmsnorm(const float* input, const float* weight, float* output, int M, int N, float eps,
                    cudaStream_t stream) {
    constexpr int BLOCK_SIZE = 256;
    if (M <= 0 || N <= 0) return;
    rmsnorm_kernel<BLOCK_SIZE><<<M, BLOCK_SIZE, 0, stream>>>(input, weight, output, M, N, eps);
}
