// Lesson 04 · exercise `rmsnorm` (core).
// ALTERNATIVE ANSWER (alt/rmsnorm_smem_tree.cu): the classic shared-memory tree reduction (halving the active
// threads at each step, a barrier between steps) instead of warp shuffles: a different but valid order of additions.
// Slower (eight barriers per row) but correct for every N. Edits outside the blank; the hidden tests must pass.
#include <cuda_runtime.h>

namespace {

template <int BLOCK_SIZE>
__global__ void rmsnorm_kernel(const float* __restrict__ input, const float* __restrict__ weight,
                               float* __restrict__ output, int M, int N, float eps) {
    static_assert((BLOCK_SIZE & (BLOCK_SIZE - 1)) == 0, "the tree halves the block: a power of two");
    __shared__ float partial[BLOCK_SIZE];
    __shared__ float smem_inv_rms;

    const int row = blockIdx.x;
    const int tid = threadIdx.x;
    if (row >= M) return;
    const long long row_offset = static_cast<long long>(row) * N;
    const float* row_in = input + row_offset;
    float* row_out = output + row_offset;

    float local = 0.0f;
    for (int col = tid; col < N; col += BLOCK_SIZE) local += row_in[col] * row_in[col];
    partial[tid] = local;
    __syncthreads();
    for (int active = BLOCK_SIZE / 2; active > 0; active >>= 1) {
        if (tid < active) partial[tid] += partial[tid + active];
        __syncthreads();
    }
    if (tid == 0) smem_inv_rms = rsqrtf(partial[0] / static_cast<float>(N) + eps);
    __syncthreads();
    const float inv_rms = smem_inv_rms;
    for (int col = tid; col < N; col += BLOCK_SIZE) row_out[col] = row_in[col] * inv_rms * weight[col];
}

}  // namespace

void launch_rmsnorm(const float* input, const float* weight, float* output, int M, int N, float eps,
                    cudaStream_t stream) {
    constexpr int BLOCK_SIZE = 256;
    if (M <= 0 || N <= 0) return;
    rmsnorm_kernel<BLOCK_SIZE><<<M, BLOCK_SIZE, 0, stream>>>(input, weight, output, M, N, eps);
}
