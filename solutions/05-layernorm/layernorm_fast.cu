// Lesson 05 · exercise `layernorm_fast` (performance) — bf16 LayerNorm that reads each row from memory once:
// 16-byte loads (lesson 04's scalar prefix, vector body, scalar tail) and the row's packs cached in registers, so
// the mean pass, the variance pass and the output pass all work on the same registers.
//
// What to fill, in file order (all three in layernorm_fast_kernel; the packs a thread owns are v = tid + i * BLOCK_SIZE
// for i = 0 .. PACKS-1, those with v < cached_vec):
//   cache_row   load this thread's packs of the row into `cache` (one 16-byte load each) and add their 8 values,
//               widened to float, to local_sum;
//   centered    add the squared distances of the cached values from the mean to local_sq_sum;
//   write_row   normalize the cached packs and store them at their columns, using bias and weight of those columns.
//
// Entry point:
//   void launch_layernorm_fast(const __nv_bfloat16* input, const __nv_bfloat16* weight, const __nv_bfloat16* bias,
//                              __nv_bfloat16* output, int M, int N, float eps, cudaStream_t stream);
//   Same contract as `launch_layernorm_bf16` (layernorm_half.cu): M x N contiguous rows, fp32 statistics, one
//   rounding at the store:
//       output[r][j] = bf16( (float(input[r][j]) - mean[r]) * rstd[r] * float(weight[j]) + float(bias[j]) )
//   Every pointer may start at any 2-byte-aligned address, independently of the others (rows of odd length start
//   at a different alignment from the row before). Correct for every N >= 1; rows of up to 16384 + 14 elements are
//   cached whole, longer rows read the rest of their packs again in each pass. Runs on `stream`; returns at once.
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <cstdint>

namespace {

constexpr unsigned kFullMask = 0xffffffffu;
constexpr int VEC = 8;              // bf16 values per 16-byte pack
constexpr unsigned VEC_BYTES = 16;  // the widest load a single thread can issue

struct alignas(16) Pack {
    __nv_bfloat16 v[VEC];
};

__device__ __forceinline__ float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }
__device__ __forceinline__ __nv_bfloat16 to_bf16(float v) { return __float2bfloat16_rn(v); }

__device__ __forceinline__ unsigned misalignment_bytes(const void* p) {
    return static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(p) & (VEC_BYTES - 1));
}

// Lesson 04's prefix: the elements before the first 16-byte-aligned address of the row, at most n.
__device__ __forceinline__ int prefix_length(const __nv_bfloat16* p, int n) {
    const unsigned misalign = misalignment_bytes(p);
    return min(n, static_cast<int>(((VEC_BYTES - misalign) % VEC_BYTES) / sizeof(__nv_bfloat16)));
}

// 8 consecutive values at p: one 16-byte access when p is 16-byte aligned, 8 scalar ones otherwise. The input row's
// packs are always aligned (the prefix sees to it); weight, bias and output are aligned at the same columns only when
// they lie at the same offset from a 16-byte boundary as the input row.
__device__ __forceinline__ Pack load_pack(const __nv_bfloat16* p, bool aligned) {
    if (aligned) return *reinterpret_cast<const Pack*>(p);
    Pack r;
#pragma unroll
    for (int k = 0; k < VEC; ++k) r.v[k] = p[k];
    return r;
}
__device__ __forceinline__ void store_pack(__nv_bfloat16* p, const Pack& y, bool aligned) {
    if (aligned) {
        *reinterpret_cast<Pack*>(p) = y;
        return;
    }
#pragma unroll
    for (int k = 0; k < VEC; ++k) p[k] = y.v[k];
}

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

// `cache` stays in registers only if every index into it is a compile-time constant: the loops over PACKS must be
// fully unrolled (a loop indexed at run time would move the array to local memory, which is DRAM).
template <int BLOCK_SIZE, int PACKS>
__global__ void layernorm_fast_kernel(const __nv_bfloat16* __restrict__ input, const __nv_bfloat16* __restrict__ weight,
                                      const __nv_bfloat16* __restrict__ bias, __nv_bfloat16* __restrict__ output,
                                      int M, int N, float eps) {
    const int row = blockIdx.x;
    const int tid = threadIdx.x;
    if (row >= M) return;

    const long long row_offset = static_cast<long long>(row) * N;
    const __nv_bfloat16* row_in = input + row_offset;
    __nv_bfloat16* row_out = output + row_offset;

    // The row in three parts: [0, prefix) scalar, `num_vec` aligned packs, [tail, N) scalar.
    const int prefix = prefix_length(row_in, N);
    const int num_vec = (N - prefix) / VEC;
    const int tail = prefix + num_vec * VEC;
    const int cached_vec = min(num_vec, PACKS * BLOCK_SIZE);  // packs held in registers; the rest are re-read
    const unsigned in_mis = misalignment_bytes(row_in);
    const bool w_aligned = misalignment_bytes(weight) == in_mis;
    const bool b_aligned = misalignment_bytes(bias) == in_mis;
    const bool out_aligned = misalignment_bytes(row_out) == in_mis;

    // Scalars and packs that are not cached, read from memory in every pass: a few per row at most, unless the row
    // is longer than the cache. scalar_op gets the column and its input element, already widened to float.
    auto for_each_uncached = [&](auto&& scalar_op) {
        auto visit = [&](int j) { scalar_op(j, to_float(row_in[j])); };
        for (int j = tid; j < prefix; j += BLOCK_SIZE) visit(j);
        for (int j = tail + tid; j < N; j += BLOCK_SIZE) visit(j);
        for (int v = cached_vec + tid; v < num_vec; v += BLOCK_SIZE)
            for (int k = 0; k < VEC; ++k) visit(prefix + v * VEC + k);
    };

    Pack cache[PACKS];
    float local_sum = 0.0f;
    // BLANK:cache_row
#pragma unroll
    for (int i = 0; i < PACKS; ++i) {
        const int v = tid + i * BLOCK_SIZE;  // at each i a warp reads 32 consecutive packs: 512 contiguous bytes
        if (v < cached_vec) {
            cache[i] = load_pack(row_in + prefix + v * VEC, true);
#pragma unroll
            for (int k = 0; k < VEC; ++k) local_sum += to_float(cache[i].v[k]);
        }
    }
    // END BLANK
    for_each_uncached([&](int, float x) { local_sum += x; });
    const float mean = block_allreduce_sum<BLOCK_SIZE>(local_sum) / static_cast<float>(N);

    float local_sq_sum = 0.0f;
    // BLANK:centered
#pragma unroll
    for (int i = 0; i < PACKS; ++i) {
        const int v = tid + i * BLOCK_SIZE;
        if (v < cached_vec) {
#pragma unroll
            for (int k = 0; k < VEC; ++k) {
                const float d = to_float(cache[i].v[k]) - mean;
                local_sq_sum += d * d;
            }
        }
    }
    // END BLANK
    for_each_uncached([&](int, float x) {
        const float d = x - mean;
        local_sq_sum += d * d;
    });
    const float rstd = rsqrtf(block_allreduce_sum<BLOCK_SIZE>(local_sq_sum) / static_cast<float>(N) + eps);

    // BLANK:write_row
#pragma unroll
    for (int i = 0; i < PACKS; ++i) {
        const int v = tid + i * BLOCK_SIZE;
        if (v < cached_vec) {
            const int j = prefix + v * VEC;
            const Pack w = load_pack(weight + j, w_aligned);
            const Pack b = load_pack(bias + j, b_aligned);
            Pack y;
#pragma unroll
            for (int k = 0; k < VEC; ++k) {
                y.v[k] = to_bf16((to_float(cache[i].v[k]) - mean) * rstd * to_float(w.v[k]) + to_float(b.v[k]));
            }
            store_pack(row_out + j, y, out_aligned);
        }
    }
    // END BLANK
    for_each_uncached([&](int j, float x) {
        // One fused multiply-add for the affine part, as nvcc compiles the packed path's `x_hat * w + b` on the GPU.
        const float x_hat = (x - mean) * rstd;
        row_out[j] = to_bf16(fmaf(x_hat, to_float(weight[j]), to_float(bias[j])));
    });
}

template <int BLOCK_SIZE, int PACKS>
void launch_cached(const __nv_bfloat16* input, const __nv_bfloat16* weight, const __nv_bfloat16* bias,
                   __nv_bfloat16* output, int M, int N, float eps, cudaStream_t stream) {
    layernorm_fast_kernel<BLOCK_SIZE, PACKS><<<M, BLOCK_SIZE, 0, stream>>>(input, weight, bias, output, M, N, eps);
}

}  // namespace

void launch_layernorm_fast(const __nv_bfloat16* input, const __nv_bfloat16* weight, const __nv_bfloat16* bias,
                           __nv_bfloat16* output, int M, int N, float eps, cudaStream_t stream) {
    if (M <= 0 || N <= 0) return;
    // The smallest cache that holds the row's packs: few packs per thread keeps register pressure low (4 registers a
    // pack), and long rows get more threads rather than more packs per thread.
    const int packs = N / VEC + 1;
    if (packs <= 256) {
        launch_cached<256, 1>(input, weight, bias, output, M, N, eps, stream);
    } else if (packs <= 512) {
        launch_cached<256, 2>(input, weight, bias, output, M, N, eps, stream);
    } else if (packs <= 1024) {
        launch_cached<256, 4>(input, weight, bias, output, M, N, eps, stream);
    } else {
        launch_cached<512, 4>(input, weight, bias, output, M, N, eps, stream);
    }
}
