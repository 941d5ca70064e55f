// Lesson 05 · exercise `layernorm_half` — LayerNorm on bf16 and fp16 tensors with fp32 statistics.
//
// What to fill, in file order:
//   fp32_sum        pass 1's loop body: add this element, widened to float, to local_sum;
//   fp32_centered   pass 2's loop body: add this element's squared distance from the (fp32) mean to local_sq_sum;
//   rstd            the reciprocal standard deviation from the block's sq_sum;
//   output_cast     pass 3: the output element, computed in float and rounded to T once, as the contract says.
//
// Entry points (one kernel template serves both types):
//   void launch_layernorm_bf16(const __nv_bfloat16* input, const __nv_bfloat16* weight, const __nv_bfloat16* bias,
//                              __nv_bfloat16* output, int M, int N, float eps, cudaStream_t stream);
//   void launch_layernorm_fp16(const __half* input, const __half* weight, const __half* bias, __half* output,
//                              int M, int N, float eps, cudaStream_t stream);
//   input, output: device pointers to M x N elements, row-major, contiguous; weight, bias: N elements. With T the
//   element type, float(.) the exact widening and T(.) rounding to nearest even, for every row r and column j:
//       mean[r]      = (sum over k of float(input[r][k])) / N                              (in fp32)
//       rstd[r]      = 1 / sqrt( (sum over k of (float(input[r][k]) - mean[r])^2) / N + eps )   (in fp32)
//       output[r][j] = T( (float(input[r][j]) - mean[r]) * rstd[r] * float(weight[j]) + float(bias[j]) )
//   i.e. everything in fp32 and ONE rounding, at the store (PyTorch's LayerNorm on half tensors).
//   One block of 256 threads per row, launched on `stream`; returns without waiting.
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace {

constexpr unsigned kFullMask = 0xffffffffu;

// Exact widening and round-to-nearest-even narrowing, spelled out per type so no implicit conversion is involved.
__device__ __forceinline__ float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }
__device__ __forceinline__ float to_float(__half v) { return __half2float(v); }

template <typename T>
__device__ T from_float(float v);
template <>
__device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float v) { return __float2bfloat16_rn(v); }
template <>
__device__ __forceinline__ __half from_float<__half>(float v) { return __float2half_rn(v); }

__device__ __forceinline__ float warp_reduce_sum(float val) {
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
        val += __shfl_down_sync(kFullMask, val, offset);
    }
    return val;
}

// Sum over the whole block, returned to every thread (as in the core exercise).
template <int BLOCK_SIZE>
__device__ __forceinline__ float block_allreduce_sum(float val) {
    constexpr int NUM_WARPS = (BLOCK_SIZE + 31) / 32;
    __shared__ float warp_partials[NUM_WARPS];
    __shared__ float total;
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;

    val = warp_reduce_sum(val);
    if (lane == 0) warp_partials[warp] = val;
    __syncthreads();
    if (warp == 0) {
        val = (lane < NUM_WARPS) ? warp_partials[lane] : 0.0f;
        val = warp_reduce_sum(val);
        if (lane == 0) total = val;
    }
    __syncthreads();
    return total;
}

// A 16-bit type has 8 (bf16) or 11 (fp16) significant bits: a running sum kept in T would stop growing once it is
// 2^8 or 2^11 times larger than the terms, and fp16 overflows at 65504. So T is only the storage format: every
// value is widened on load, all arithmetic is fp32, and the single rounding back to T happens at the store.
template <typename T, int BLOCK_SIZE>
__global__ void layernorm_half_kernel(const T* __restrict__ input, const T* __restrict__ weight,
                                      const T* __restrict__ bias, T* __restrict__ output, int M, int N, float eps) {
    const int row = blockIdx.x;
    const int tid = threadIdx.x;
    if (row >= M) return;

    const long long row_offset = static_cast<long long>(row) * N;
    const T* row_in = input + row_offset;
    T* row_out = output + row_offset;

    float local_sum = 0.0f;
    for (int col = tid; col < N; col += BLOCK_SIZE) {
        // BLANK:fp32_sum
        local_sum += to_float(row_in[col]);
        // END BLANK
    }
    const float mean = block_allreduce_sum<BLOCK_SIZE>(local_sum) / static_cast<float>(N);

    float local_sq_sum = 0.0f;
    for (int col = tid; col < N; col += BLOCK_SIZE) {
        // BLANK:fp32_centered
        const float d = to_float(row_in[col]) - mean;
        local_sq_sum += d * d;
        // END BLANK
    }
    const float sq_sum = block_allreduce_sum<BLOCK_SIZE>(local_sq_sum);
    const float rstd = /*BLANK:rstd*/ rsqrtf(sq_sum / static_cast<float>(N) + eps) /*END*/;

    for (int col = tid; col < N; col += BLOCK_SIZE) {
        // BLANK:output_cast
        const float y = (to_float(row_in[col]) - mean) * rstd * to_float(weight[col]) + to_float(bias[col]);
        row_out[col] = from_float<T>(y);
        // END BLANK
    }
}

template <typename T>
void launch_half(const T* input, const T* weight, const T* bias, T* output, int M, int N, float eps,
                 cudaStream_t stream) {
    constexpr int BLOCK_SIZE = 256;
    if (M <= 0 || N <= 0) return;
    layernorm_half_kernel<T, BLOCK_SIZE><<<M, BLOCK_SIZE, 0, stream>>>(input, weight, bias, output, M, N, eps);
}

}  // namespace

void launch_layernorm_bf16(const __nv_bfloat16* input, const __nv_bfloat16* weight, const __nv_bfloat16* bias,
                           __nv_bfloat16* output, int M, int N, float eps, cudaStream_t stream) {
    launch_half(input, weight, bias, output, M, N, eps, stream);
}

void launch_layernorm_fp16(const __half* input, const __half* weight, const __half* bias, __half* output, int M, int N,
                           float eps, cudaStream_t stream) {
    launch_half(input, weight, bias, output, M, N, eps, stream);
}
