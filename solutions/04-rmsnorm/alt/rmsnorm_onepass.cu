// Lesson 04 · exercise `rmsnorm` (core).
// ALTERNATIVE ANSWER (alt/rmsnorm_onepass.cu): one pass with the row cached in registers. Each of the 256 threads
// keeps up to 32 elements of its row while the block reduces the sum of squares, then writes the output from those
// registers: the input is read once instead of twice. Rows longer than 256 * 32 = 8192 use the two-pass loop. The
// inverse RMS is computed by every thread from an all-reduced sum (xor butterflies), so no shared scalar is needed.
// Edits outside the blank; the hidden tests must pass.
#include <cuda_runtime.h>

namespace {

constexpr int BLOCK_SIZE = 256;
constexpr int MAX_ITEMS = 32;

__device__ __forceinline__ float warp_allreduce(float v) {
#pragma unroll
    for (int mask = 16; mask > 0; mask >>= 1) v += __shfl_xor_sync(0xffffffffu, v, mask);
    return v;
}

// Every thread gets the block total.
__device__ float block_allreduce(float v) {
    __shared__ float partials[BLOCK_SIZE / 32];
    v = warp_allreduce(v);
    if ((threadIdx.x & 31) == 0) partials[threadIdx.x >> 5] = v;
    __syncthreads();
    v = ((threadIdx.x & 31) < BLOCK_SIZE / 32) ? partials[threadIdx.x & 31] : 0.0f;
    return warp_allreduce(v);  // every warp combines the partials itself
}

template <int ITEMS>
__global__ void rmsnorm_kernel(const float* __restrict__ input, const float* __restrict__ weight,
                               float* __restrict__ output, int M, int N, float eps) {
    const int row = blockIdx.x;
    if (row >= M) return;
    const long long row_offset = static_cast<long long>(row) * N;
    const float* row_in = input + row_offset;
    float* row_out = output + row_offset;

    float cache[ITEMS];
    float local = 0.0f;
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
        const int col = threadIdx.x + i * BLOCK_SIZE;
        cache[i] = (col < N) ? row_in[col] : 0.0f;
        local += cache[i] * cache[i];
    }
    const float inv_rms = rsqrtf(block_allreduce(local) / static_cast<float>(N) + eps);
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
        const int col = threadIdx.x + i * BLOCK_SIZE;
        if (col < N) row_out[col] = cache[i] * inv_rms * weight[col];
    }
}

__global__ void rmsnorm_two_pass(const float* __restrict__ input, const float* __restrict__ weight,
                                 float* __restrict__ output, int M, int N, float eps) {
    const int row = blockIdx.x;
    if (row >= M) return;
    const long long row_offset = static_cast<long long>(row) * N;
    float local = 0.0f;
    for (int col = threadIdx.x; col < N; col += BLOCK_SIZE) local += input[row_offset + col] * input[row_offset + col];
    const float inv_rms = rsqrtf(block_allreduce(local) / static_cast<float>(N) + eps);
    for (int col = threadIdx.x; col < N; col += BLOCK_SIZE)
        output[row_offset + col] = input[row_offset + col] * inv_rms * weight[col];
}

}  // namespace

void launch_rmsnorm(const float* input, const float* weight, float* output, int M, int N, float eps,
                    cudaStream_t stream) {
    if (M <= 0 || N <= 0) return;
    if (N <= BLOCK_SIZE * 4) {
        rmsnorm_kernel<4><<<M, BLOCK_SIZE, 0, stream>>>(input, weight, output, M, N, eps);
    } else if (N <= BLOCK_SIZE * 16) {
        rmsnorm_kernel<16><<<M, BLOCK_SIZE, 0, stream>>>(input, weight, output, M, N, eps);
    } else if (N <= BLOCK_SIZE * MAX_ITEMS) {
        rmsnorm_kernel<MAX_ITEMS><<<M, BLOCK_SIZE, 0, stream>>>(input, weight, output, M, N, eps);
    } else {
        rmsnorm_two_pass<<<M, BLOCK_SIZE, 0, stream>>>(input, weight, output, M, N, eps);
    }
}
