// Lesson 04 · exercise `rmsnorm_vec` — bf16 RMSNorm with 16-byte loads, a scalar prefix and a scalar tail.
//
// A 16-byte load (8 bf16 values in one instruction) is only legal at an address that is a multiple of 16. A row of a
// real tensor need not start at one: a slice `buf + 1`, a row stride that is not a multiple of 8, or an odd hidden
// size all move it. So every row is walked in three parts: single elements up to the first 16-byte boundary (the
// prefix), whole 8-element packs (the body), and the single elements left after the last whole pack (the tail).
//
// What to fill, in file order (the first three are in `for_each_in_row`, which both passes use):
//   prefix_len   how many elements lie before the first 16-byte-aligned address of the row (never more than n);
//   vector_body  declare `num_vec`, the number of whole 8-element packs after the prefix, and loop over them,
//                spread over the block, handing each pack's first index to vector_op;
//   scalar_tail  the loop over the elements after the last whole pack, spread over the block, handing each index to
//                scalar_op.
//   vec_inv_rms  (in the kernel) the row's inverse RMS from the block's sum of squares, as in the core exercise.
//
// Entry point:
//   void launch_rmsnorm_vec(const __nv_bfloat16* input, long long input_row_stride, const __nv_bfloat16* weight,
//                           __nv_bfloat16* output, long long output_row_stride, int M, int N, float eps,
//                           cudaStream_t stream);
//   Row r of the input is input[r * input_row_stride + j], of the output output[r * output_row_stride + j], for
//   0 <= j < N (strides in elements, >= N). input, weight and output may each start at any 2-byte-aligned address,
//   independently of one another. In-place use (output == input with the same stride) is allowed, so the pointers
//   are not declared __restrict__. Semantics as in `rmsnorm_half` (fp32 accumulation, Llama cast order):
//       inv_rms[r]   = 1 / sqrt( (sum over k of float(x[r][k])^2) / N + eps )
//       output[r][j] = bf16( float( bf16(float(x[r][j]) * inv_rms[r]) ) * float(weight[j]) )
//   One block of 256 threads per row, launched on `stream`; returns without waiting.
//
// Mixed alignment: the walk follows the input row's alignment, so input loads are always 16-byte loads in the body.
// The weight and the output row can be read and written as packs at the same indices only when they sit at the same
// offset from a 16-byte boundary as the input row; when they do not (vLLM once checked only the input and crashed on
// a misaligned output), pass 2 handles each pack's 8 weights and outputs one element at a time. That is slower but
// correct for every combination of pointers.
#include <cub/cub.cuh>

#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <cstdint>

namespace {

constexpr int VEC = 8;              // bf16 values per 16-byte pack
constexpr unsigned VEC_BYTES = 16;  // widest load a single thread can issue

struct alignas(16) Bf16x8 {
    __nv_bfloat16 v[VEC];
};

__device__ __forceinline__ float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }
__device__ __forceinline__ __nv_bfloat16 to_bf16(float v) { return __float2bfloat16_rn(v); }

// Bytes by which p lies past the previous 16-byte boundary (0 when aligned).
__device__ __forceinline__ unsigned misalignment_bytes(const void* p) {
    return static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(p) & (VEC_BYTES - 1));
}

// ANCHOR: prefix_length
// Number of elements from p up to (not including) the first 16-byte-aligned address, capped at n.
__device__ __forceinline__ int prefix_length(const __nv_bfloat16* p, int n) {
    const unsigned misalign = misalignment_bytes(p);
    return /*BLANK:prefix_len*/ min(n, static_cast<int>(((VEC_BYTES - misalign) % VEC_BYTES) / sizeof(__nv_bfloat16))) /*END*/;
}
// ANCHOR_END: prefix_length

// ANCHOR: for_each_in_row
// Visits every index of row[0, n) exactly once, spread over the block: scalar_op(j) for one element,
// vector_op(j) for the 8 elements j..j+7, where row + j is 16-byte aligned.
template <int BLOCK_SIZE, typename VectorOp, typename ScalarOp>
__device__ __forceinline__ void for_each_in_row(const __nv_bfloat16* row, int n, VectorOp&& vector_op,
                                                ScalarOp&& scalar_op) {
    const int prefix = prefix_length(row, n);
    for (int j = threadIdx.x; j < prefix; j += BLOCK_SIZE) {
        scalar_op(j);
    }
    // BLANK:vector_body
    const int num_vec = (n - prefix) / VEC;
    for (int v = threadIdx.x; v < num_vec; v += BLOCK_SIZE) {
        vector_op(prefix + v * VEC);
    }
    // END BLANK
    // BLANK:scalar_tail
    for (int j = prefix + num_vec * VEC + threadIdx.x; j < n; j += BLOCK_SIZE) {
        scalar_op(j);
    }
    // END BLANK
}
// ANCHOR_END: for_each_in_row

// Sum over the whole block, valid in thread 0 only: CUB's block reduction, the library one vLLM's kernels use (the
// block_reduce exercise builds one by hand from warp shuffles and shared memory). Called once per kernel: a second
// call would need a barrier before it reuses the shared storage.
template <int BLOCK_SIZE>
__device__ __forceinline__ float block_reduce_sum(float val) {
    using BlockReduce = cub::BlockReduce<float, BLOCK_SIZE>;
    __shared__ typename BlockReduce::TempStorage storage;
    return BlockReduce(storage).Sum(val);
}

template <int BLOCK_SIZE>
__global__ void rmsnorm_vec_kernel(const __nv_bfloat16* input, long long input_row_stride,
                                   const __nv_bfloat16* __restrict__ weight, __nv_bfloat16* output,
                                   long long output_row_stride, int M, int N, float eps) {
    const int row = blockIdx.x;
    if (row >= M) return;

    const __nv_bfloat16* row_in = input + static_cast<long long>(row) * input_row_stride;
    __nv_bfloat16* row_out = output + static_cast<long long>(row) * output_row_stride;

    // Pass 1: sum of squares in fp32.
    float local_sq_sum = 0.0f;
    for_each_in_row<BLOCK_SIZE>(
        row_in, N,
        [&](int j) {
            const Bf16x8 x = *reinterpret_cast<const Bf16x8*>(row_in + j);  // one 16-byte load
#pragma unroll
            for (int k = 0; k < VEC; ++k) {
                const float f = to_float(x.v[k]);
                local_sq_sum += f * f;
            }
        },
        [&](int j) {
            const float f = to_float(row_in[j]);
            local_sq_sum += f * f;
        });

    const float sq_sum = block_reduce_sum<BLOCK_SIZE>(local_sq_sum);
    __shared__ float smem_inv_rms;
    // BLANK:vec_inv_rms
    if (threadIdx.x == 0) {
        smem_inv_rms = rsqrtf(sq_sum / static_cast<float>(N) + eps);
    }
    __syncthreads();
    const float inv_rms = smem_inv_rms;
    // END BLANK

    // ANCHOR: pass2_alignment
    // Pass 2. Weight and output can use packs at the input's pack indices only if they share its misalignment.
    const unsigned in_mis = misalignment_bytes(row_in);
    const bool weight_packs = misalignment_bytes(weight) == in_mis;
    const bool output_packs = misalignment_bytes(row_out) == in_mis;
    // ANCHOR_END: pass2_alignment

    auto normalize = [inv_rms](__nv_bfloat16 x, __nv_bfloat16 w) {
        return to_bf16(to_float(to_bf16(to_float(x) * inv_rms)) * to_float(w));
    };

    for_each_in_row<BLOCK_SIZE>(
        row_in, N,
        [&](int j) {
            const Bf16x8 x = *reinterpret_cast<const Bf16x8*>(row_in + j);
            Bf16x8 w;
            if (weight_packs) {
                w = *reinterpret_cast<const Bf16x8*>(weight + j);
            } else {
#pragma unroll
                for (int k = 0; k < VEC; ++k) w.v[k] = weight[j + k];
            }
            Bf16x8 y;
#pragma unroll
            for (int k = 0; k < VEC; ++k) y.v[k] = normalize(x.v[k], w.v[k]);
            if (output_packs) {
                *reinterpret_cast<Bf16x8*>(row_out + j) = y;  // one 16-byte store
            } else {
#pragma unroll
                for (int k = 0; k < VEC; ++k) row_out[j + k] = y.v[k];
            }
        },
        [&](int j) { row_out[j] = normalize(row_in[j], weight[j]); });
}

}  // namespace

void launch_rmsnorm_vec(const __nv_bfloat16* input, long long input_row_stride, const __nv_bfloat16* weight,
                        __nv_bfloat16* output, long long output_row_stride, int M, int N, float eps,
                        cudaStream_t stream) {
    constexpr int BLOCK_SIZE = 256;
    if (M <= 0 || N <= 0) return;
    rmsnorm_vec_kernel<BLOCK_SIZE><<<M, BLOCK_SIZE, 0, stream>>>(input, input_row_stride, weight, output,
                                                                 output_row_stride, M, N, eps);
}
