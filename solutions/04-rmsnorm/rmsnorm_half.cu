// Lesson 04 · exercise `rmsnorm_half` — RMSNorm on bf16 and fp16 tensors with fp32 accumulation (Llama cast order).
//
// What to fill, in file order:
//   fp32_accumulate  pass 1: declare `float local_sq_sum` and add to it the squares of this thread's elements of the
//                    row (columns tid, tid + BLOCK_SIZE, ...), each widened to float before it is squared;
//   half_inv_rms     the row's inverse RMS from the block's sum of squares, as in the core exercise `rmsnorm`;
//   output_cast      pass 2: the output element, rounded to the 16-bit type exactly as the contract below says.
//
// Entry points (one kernel template serves both types):
//   void launch_rmsnorm_bf16(const __nv_bfloat16* input, const __nv_bfloat16* weight, __nv_bfloat16* output,
//                            int M, int N, float eps, cudaStream_t stream);
//   void launch_rmsnorm_fp16(const __half* input, const __half* weight, __half* output,
//                            int M, int N, float eps, cudaStream_t stream);
//   input, output: device pointers to M x N elements, row-major, contiguous; weight: N elements. With T the element
//   type, float(.) the exact widening and T(.) rounding to nearest even, for every row r and column j:
//       inv_rms[r]   = 1 / sqrt( (sum over k of float(input[r][k])^2) / N + eps )    (accumulated in fp32)
//       output[r][j] = T( float( T(float(input[r][j]) * inv_rms[r]) ) * float(weight[j]) )
//   i.e. normalise in fp32, round to T, then multiply by the weight and round again (vLLM / Hugging Face Llama).
//   One block of 256 threads per row, launched on `stream`; returns without waiting.
#include <cub/cub.cuh>

#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace {

// Exact widening and round-to-nearest-even narrowing, spelled out per type so no implicit conversion is involved.
__device__ __forceinline__ float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }
__device__ __forceinline__ float to_float(__half v) { return __half2float(v); }

template <typename T>
__device__ T from_float(float v);
template <>
__device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float v) { return __float2bfloat16_rn(v); }
template <>
__device__ __forceinline__ __half from_float<__half>(float v) { return __float2half_rn(v); }

// Sum over the whole block, valid in thread 0 only: CUB's block reduction, the library one vLLM's kernels use (the
// block_reduce exercise builds one by hand from warp shuffles and shared memory). Called once per kernel: a second
// call would need a barrier before it reuses the shared storage.
template <int BLOCK_SIZE>
__device__ __forceinline__ float block_reduce_sum(float val) {
    using BlockReduce = cub::BlockReduce<float, BLOCK_SIZE>;
    __shared__ typename BlockReduce::TempStorage storage;
    return BlockReduce(storage).Sum(val);
}

template <typename T, int BLOCK_SIZE>
__global__ void rmsnorm_half_kernel(const T* __restrict__ input, const T* __restrict__ weight,
                                    T* __restrict__ output, int M, int N, float eps) {
    const int row = blockIdx.x;
    const int tid = threadIdx.x;
    if (row >= M) return;

    const long long row_offset = static_cast<long long>(row) * N;
    const T* row_in = input + row_offset;
    T* row_out = output + row_offset;

    // ANCHOR: pass1
    // Pass 1. Squares of 16-bit values overflow fp16 once |x| > 256 (65504 is its largest finite value), and a 16-bit
    // running sum stops growing once it is about 256 times larger than what is added; fp32 avoids both.
    // BLANK:fp32_accumulate
    float local_sq_sum = 0.0f;
    for (int col = tid; col < N; col += BLOCK_SIZE) {
        const float x = to_float(row_in[col]);
        local_sq_sum += x * x;
    }
    // END BLANK

    const float sq_sum = block_reduce_sum<BLOCK_SIZE>(local_sq_sum);
    // ANCHOR_END: pass1

    __shared__ float smem_inv_rms;
    // BLANK:half_inv_rms
    if (tid == 0) {
        smem_inv_rms = rsqrtf(sq_sum / static_cast<float>(N) + eps);
    }
    __syncthreads();
    const float inv_rms = smem_inv_rms;
    // END BLANK

    // ANCHOR: pass2
    // Pass 2. The normalised value is rounded to T before the weight is applied: that is the order the models were
    // trained with, and the tests compare against it.
    for (int col = tid; col < N; col += BLOCK_SIZE) {
        row_out[col] =
            /*BLANK:output_cast*/ from_float<T>(to_float(from_float<T>(to_float(row_in[col]) * inv_rms)) * to_float(weight[col])) /*END*/;
    }
    // ANCHOR_END: pass2
}

template <typename T>
void launch_half(const T* input, const T* weight, T* output, int M, int N, float eps, cudaStream_t stream) {
    constexpr int BLOCK_SIZE = 256;
    if (M <= 0 || N <= 0) return;
    rmsnorm_half_kernel<T, BLOCK_SIZE><<<M, BLOCK_SIZE, 0, stream>>>(input, weight, output, M, N, eps);
}

}  // namespace

void launch_rmsnorm_bf16(const __nv_bfloat16* input, const __nv_bfloat16* weight, __nv_bfloat16* output, int M,
                         int N, float eps, cudaStream_t stream) {
    launch_half(input, weight, output, M, N, eps, stream);
}

void launch_rmsnorm_fp16(const __half* input, const __half* weight, __half* output, int M, int N, float eps,
                         cudaStream_t stream) {
    launch_half(input, weight, output, M, N, eps, stream);
}
