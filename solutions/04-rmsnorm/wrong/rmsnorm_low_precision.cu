// Known wrong answer (cheat, gpu-mode's "low precision"): does the arithmetic in fp16 to save time. Squares above
// 65504 become inf and every value carries fp16's 3-digit precision, far outside the fp32 tolerance.
#include <cuda_runtime.h>
#include <cuda_fp16.h>

namespace {
__global__ void rmsnorm_kernel(const float* input, const float* weight, float* output, int M, int N, float eps) {
    const int row = blockIdx.x;
    if (row >= M) return;
    const float* row_in = input + static_cast<long long>(row) * N;
    float* row_out = output + static_cast<long long>(row) * N;
    __shared__ __half partial[256];
    __half sum = __float2half(0.0f);
    for (int col = threadIdx.x; col < N; col += 256) {
        const __half x = __float2half(row_in[col]);
        sum = __hadd(sum, __hmul(x, x));
    }
    partial[threadIdx.x] = sum;
    __syncthreads();
    for (int s = 128; s > 0; s >>= 1) {
        if (threadIdx.x < s) partial[threadIdx.x] = __hadd(partial[threadIdx.x], partial[threadIdx.x + s]);
        __syncthreads();
    }
    const __half inv = hrsqrt(__hadd(__hdiv(partial[0], __float2half(static_cast<float>(N))), __float2half(eps)));
    for (int col = threadIdx.x; col < N; col += 256) {
        row_out[col] = __half2float(__hmul(__hmul(__float2half(row_in[col]), inv), __float2half(weight[col])));
    }
}
}  // namespace

void launch_rmsnorm(const float* input, const float* weight, float* output, int M, int N, float eps,
                    cudaStream_t stream) {
    if (M <= 0 || N <= 0) return;
    rmsnorm_kernel<<<M, 256, 0, stream>>>(input, weight, output, M, N, eps);
}
