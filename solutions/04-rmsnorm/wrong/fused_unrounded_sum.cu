// Known wrong answer (different contract): FlashInfer's semantics instead of this workbook's. The sum x + residual is
// kept in fp32 (recomputed in pass 2 from the untouched inputs) and both the statistic and the output use that
// unrounded value; the residual written back is right. The contract normalises the ROUNDED residual, so about a
// quarter of the outputs differ from it by one unit in the last place: a test that compares bf16 outputs to the last
// bit sees it, a plain 1e-2 tolerance does not. Rewriting the file is also an edit outside the blanks (veto).
#include <cuda_runtime.h>
#include <cuda_bf16.h>

namespace {

__device__ __forceinline__ float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }
__device__ __forceinline__ __nv_bfloat16 to_bf16(float v) { return __float2bfloat16_rn(v); }

template <int BLOCK_SIZE>
__device__ float block_sum(float val) {
    __shared__ float partials[BLOCK_SIZE / 32];
    __shared__ float total;
    for (int offset = 16; offset > 0; offset >>= 1) val += __shfl_xor_sync(0xffffffffu, val, offset);
    if ((threadIdx.x & 31) == 0) partials[threadIdx.x >> 5] = val;
    __syncthreads();
    if (threadIdx.x == 0) {
        float s = 0.0f;
        for (int w = 0; w < BLOCK_SIZE / 32; ++w) s += partials[w];
        total = s;
    }
    __syncthreads();
    return total;
}

template <int BLOCK_SIZE>
__global__ void fused_kernel(const __nv_bfloat16* input, __nv_bfloat16* residual, const __nv_bfloat16* weight,
                             __nv_bfloat16* output, int M, int N, float eps) {
    const int row = blockIdx.x;
    if (row >= M) return;
    const long long off = static_cast<long long>(row) * N;
    float local = 0.0f;
    for (int col = threadIdx.x; col < N; col += BLOCK_SIZE) {
        const float s = to_float(input[off + col]) + to_float(residual[off + col]);
        local += s * s;
    }
    const float inv_rms = rsqrtf(block_sum<BLOCK_SIZE>(local) / static_cast<float>(N) + eps);
    for (int col = threadIdx.x; col < N; col += BLOCK_SIZE) {
        const float s = to_float(input[off + col]) + to_float(residual[off + col]);
        residual[off + col] = to_bf16(s);
        output[off + col] = to_bf16(to_float(to_bf16(s * inv_rms)) * to_float(weight[col]));
    }
}

}  // namespace

void launch_fused_add_rmsnorm(const __nv_bfloat16* input, __nv_bfloat16* residual, const __nv_bfloat16* weight,
                              __nv_bfloat16* output, int M, int N, float eps, cudaStream_t stream) {
    if (M <= 0 || N <= 0) return;
    fused_kernel<256><<<M, 256, 0, stream>>>(input, residual, weight, output, M, N, eps);
}
