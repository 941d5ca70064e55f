// Lesson 04 · exercise `rmsnorm_bf16_fast` (performance) — bf16 RMSNorm at the memory roofline: the row read once
// into registers as 16-byte packs of 8 bf16 values, and the output's two roundings done two elements per instruction.
//
// Why the second part matters (section 7, "Where the bf16 kernel's time went"): written element by element, the bf16
// contract costs two fp32 -> bf16 conversions per element, 16 per pack, and a Hopper multiprocessor converts far fewer
// values per clock than it multiplies. With 8 values in every 16 bytes moved, those conversions, not memory, set the
// speed of a bf16 kernel. One __floats2bfloat162_rn converts two floats in one instruction, and the weight's
// multiplication can stay in bf16: __hmul2 rounds the exact product of two bf16 values once, which is exactly
// bf16(float(a) * float(b)) (the product of two 8-bit significands fits in fp32's 24 bits).
//
// What to fill, in file order:
//   normalize_pack  the 8 outputs of one pack, two at a time: widen a pair of inputs, scale by inv_rms in fp32,
//                   round the pair to bf16 with one conversion, multiply by the weight pair in bf16;
//   bf16_inv_rms    (in row_inv_rms) the row's inverse RMS from the block's sum of squares, as in the core exercise;
//   cache_row       load this thread's packs of the row into `cache` (one 16-byte load each, PACKS of them at most)
//                   and add their squares, widened to float, to local_sq;
//   pick_packs      the launch shape: the most packs per thread (up to 4) that still give a row at least two warps.
//
// Entry point:
//   void launch_rmsnorm_bf16_fast(const __nv_bfloat16* input, const __nv_bfloat16* weight,
//                                 __nv_bfloat16* output, int M, int N, float eps, cudaStream_t stream);
//   Same contract as `launch_rmsnorm_bf16` (rmsnorm_half.cu): M x N contiguous rows, fp32 accumulation,
//       inv_rms[r]   = 1 / sqrt( (sum over k of float(x[r][k])^2) / N + eps )
//       output[r][j] = bf16( float( bf16(float(x[r][j]) * inv_rms[r]) ) * float(weight[j]) )
//   Rows start wherever N puts them (odd N: off a 16-byte boundary), so each row is walked as in `rmsnorm_vec`:
//   scalar prefix, 16-byte packs, scalar tail. Weight and output move as packs when they share the row's offset from
//   a 16-byte boundary. Correct for every N >= 0; rows of up to 32768 + 14 elements stay in registers whole, longer
//   rows read the rest of their packs again. One block per row, launched on `stream`; returns without waiting.
//
// Registers decide the speed as much as the arithmetic (section 7): the kernel is instantiated twice, and the
// launcher picks the ALIGNED one when every row of input, weight and output starts on a 16-byte boundary. There the
// prefix is 0 at compile time and every pack is one 16-byte access, so the misaligned walk's extra addresses and
// branches hold no registers, and more rows fit on a multiprocessor at once.
#include <cub/cub.cuh>

#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <cstdint>

namespace {

constexpr int VEC = 8;              // bf16 values per 16-byte pack
constexpr unsigned VEC_BYTES = 16;  // the widest load a single thread can issue

struct alignas(16) Pack {
    __nv_bfloat162 pair[VEC / 2];  // held packed: 4 registers for 8 values
};

__device__ __forceinline__ unsigned misalignment_bytes(const void* p) {
    return static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(p) & (VEC_BYTES - 1));
}

// Lesson 04's prefix, the elements before the row's first 16-byte boundary (at most n), counted from the boundary's
// side: round the address up to a multiple of 16 and measure the gap (0 when p is already on a boundary).
__device__ __forceinline__ int prefix_length(const __nv_bfloat16* p, int n) {
    const std::uintptr_t addr = reinterpret_cast<std::uintptr_t>(p);
    const std::uintptr_t boundary = (addr + (VEC_BYTES - 1)) & ~static_cast<std::uintptr_t>(VEC_BYTES - 1);
    const int gap = static_cast<int>((boundary - addr) / sizeof(__nv_bfloat16));
    return gap < n ? gap : n;
}

// 8 consecutive values at p: one 16-byte access when p is 16-byte aligned, 8 scalar ones otherwise.
__device__ __forceinline__ Pack load_pack(const __nv_bfloat16* p, bool aligned) {
    if (aligned) return *reinterpret_cast<const Pack*>(p);
    Pack r;
#pragma unroll
    for (int k = 0; k < VEC / 2; ++k) r.pair[k] = __halves2bfloat162(p[2 * k], p[2 * k + 1]);
    return r;
}
// The weight, which every row reads again: as packs through the read-only path (LDG.CONSTANT), which keeps it in
// L1; a weight misaligned unlike the row (the slow path) as load_pack's 8 scalar loads.
__device__ __forceinline__ Pack load_weight_pack(const __nv_bfloat16* p, bool aligned) {
    if (!aligned) return load_pack(p, false);
    const int4 raw = __ldg(reinterpret_cast<const int4*>(p));
    Pack r;
    __builtin_memcpy(&r, &raw, sizeof(r));
    return r;
}
__device__ __forceinline__ void store_pack(__nv_bfloat16* p, const Pack& y, bool aligned) {
    if (aligned) {
        *reinterpret_cast<Pack*>(p) = y;
        return;
    }
#pragma unroll
    for (int k = 0; k < VEC / 2; ++k) {
        p[2 * k] = __low2bfloat16(y.pair[k]);
        p[2 * k + 1] = __high2bfloat16(y.pair[k]);
    }
}

// Hides from the compiler that the pack still holds the values cache_row loaded. Without it, the compiler keeps the
// fp32 widening of every element (computed for the sum of squares) alive until normalize_pack needs it again: 32
// registers instead of 16 for 4 packs, 47 a thread in all, and a 512-thread block then fits only twice on a
// multiprocessor. After it, the values are widened again, one shift or mask each.
__device__ __forceinline__ void forget_widened(Pack& p) {
    unsigned words[VEC / 2];
    __builtin_memcpy(words, &p, sizeof(words));
#pragma unroll
    for (int k = 0; k < VEC / 2; ++k) asm(""
                                          : "+r"(words[k]));
    __builtin_memcpy(&p, words, sizeof(words));
}

// The contract for one element (the prefix and the tail).
__device__ __forceinline__ __nv_bfloat16 normalize_one(__nv_bfloat16 x, float inv_rms, __nv_bfloat16 w) {
    const __nv_bfloat16 n = __float2bfloat16_rn(__bfloat162float(x) * inv_rms);
    return __float2bfloat16_rn(__bfloat162float(n) * __bfloat162float(w));
}

// The same contract for the 8 values of a pack, two per instruction.
__device__ __forceinline__ Pack normalize_pack(const Pack& x, float inv_rms, const Pack& w) {
    Pack y;
    // BLANK:normalize_pack
#pragma unroll
    for (int k = 0; k < VEC / 2; ++k) {
        const float2 f = __bfloat1622float2(x.pair[k]);
        y.pair[k] = __hmul2(__floats2bfloat162_rn(f.x * inv_rms, f.y * inv_rms), w.pair[k]);
    }
    // END BLANK
    return y;
}

// The launcher's largest block. The block size is chosen at run time (a whole number of warps, from the row's
// length), so CUB's reduction is sized for the largest and told how many threads the block has: only the warps that
// exist contribute. vLLM's RMSNorm kernels reduce the same way.
constexpr int kMaxThreads = 1024;

// Sum over the whole block, valid in thread 0 only. Called once per kernel: a second call would need a barrier before
// it reuses the shared storage.
__device__ __forceinline__ float block_reduce_sum(float val) {
    using BlockReduce = cub::BlockReduce<float, kMaxThreads>;
    __shared__ typename BlockReduce::TempStorage storage;
    return BlockReduce(storage).Sum(val, static_cast<int>(blockDim.x));
}

// Computes the row's inverse RMS in thread 0 and hands it to every thread.
__device__ __forceinline__ float row_inv_rms(float local_sq, int N, float eps) {
    const float sq_sum = block_reduce_sum(local_sq);
    __shared__ float smem_inv_rms;
    // BLANK:bf16_inv_rms
    if (threadIdx.x == 0) {
        smem_inv_rms = rsqrtf(sq_sum / static_cast<float>(N) + eps);
    }
    __syncthreads();
    return smem_inv_rms;
    // END BLANK
}

// One block of blockDim.x threads (a multiple of 32) per row; thread t owns packs t, t + blockDim.x, ... and keeps
// the first PACKS of them in registers.
template <int PACKS, bool ALIGNED>
__global__ void rmsnorm_bf16_fast_kernel(const __nv_bfloat16* input, const __nv_bfloat16* weight,
                                         __nv_bfloat16* output, int N, float eps) {
    const int tid = threadIdx.x;
    const int threads = blockDim.x;
    const __nv_bfloat16* x = input + static_cast<long long>(blockIdx.x) * N;
    __nv_bfloat16* y = output + static_cast<long long>(blockIdx.x) * N;
    // ALIGNED rows also hold whole packs (the launcher checks that the row's bytes are a multiple of 16): prefix
    // and tail are then empty at compile time, and their loops below compile to nothing.
    const int prefix = ALIGNED ? 0 : prefix_length(x, N);
    const int num_vec = ALIGNED ? N / VEC : (N - prefix) / VEC;
    const int tail = ALIGNED ? N : prefix + num_vec * VEC;
    const int cached_vec = min(num_vec, PACKS * threads);

    Pack cache[PACKS];
    float local_sq = 0.0f;
    // BLANK:cache_row
#pragma unroll
    for (int i = 0; i < PACKS; ++i) {
        const int v = tid + i * threads;
        if (v < cached_vec) {
            cache[i] = load_pack(x + prefix + v * VEC, true);
#pragma unroll
            for (int k = 0; k < VEC / 2; ++k) {
                const float2 f = __bfloat1622float2(cache[i].pair[k]);
                local_sq += f.x * f.x + f.y * f.y;
            }
        }
    }
    // END BLANK
    // Packs past the registers (rows longer than PACKS * threads packs), the prefix and the tail.
    for (int v = cached_vec + tid; v < num_vec; v += threads) {
        const Pack p = load_pack(x + prefix + v * VEC, true);
#pragma unroll
        for (int k = 0; k < VEC / 2; ++k) {
            const float2 f = __bfloat1622float2(p.pair[k]);
            local_sq += f.x * f.x + f.y * f.y;
        }
    }
    for (int j = tid; j < prefix + (N - tail); j += threads) {
        const float f = __bfloat162float(x[j < prefix ? j : tail + (j - prefix)]);
        local_sq += f * f;
    }

    const float inv_rms = row_inv_rms(local_sq, N, eps);

    const unsigned x_mis = misalignment_bytes(x);
    const bool weight_packs = ALIGNED || misalignment_bytes(weight) == x_mis;
    const bool output_packs = ALIGNED || misalignment_bytes(y) == x_mis;
    // The cached packs back out, pack i of this thread being pack v = tid + i * threads of the row, as in cache_row.
#pragma unroll
    for (int i = 0, v = tid; i < PACKS; ++i, v += threads) {
        if (v < cached_vec) {
            const int col = prefix + v * VEC;
            forget_widened(cache[i]);
            store_pack(y + col, normalize_pack(cache[i], inv_rms, load_weight_pack(weight + col, weight_packs)),
                       output_packs);
        }
    }
    for (int v = cached_vec + tid; v < num_vec; v += threads) {
        const int col = prefix + v * VEC;
        store_pack(y + col,
                   normalize_pack(load_pack(x + col, true), inv_rms, load_weight_pack(weight + col, weight_packs)),
                   output_packs);
    }
    for (int j = tid; j < prefix + (N - tail); j += threads) {
        const int col = j < prefix ? j : tail + (j - prefix);
        y[col] = normalize_one(x[col], inv_rms, __ldg(weight + col));
    }
}

constexpr int kMinThreads = 64;  // two warps a row at least: one warp alone leaves its multiprocessor idle more

int round_up_to_warp(int n) { return (n + 31) / 32 * 32; }

// Packs per thread for a row of `row_packs` packs: 4 (each thread then has 64 bytes of the row in flight before the
// reduction), halved while that would leave the row fewer than kMinThreads threads. Measured on an H200 (section 7):
// this shape is within 2 % of the best one at every large shape of the benchmark.
int pick_packs(int row_packs) {
    int packs = 4;
    // BLANK:pick_packs
    while (packs > 1 && (row_packs + packs - 1) / packs < kMinThreads) packs /= 2;
    // END BLANK
    return packs;
}

bool rows_aligned(const void* p, long long row_bytes) {
    return reinterpret_cast<std::uintptr_t>(p) % VEC_BYTES == 0 && row_bytes % VEC_BYTES == 0;
}

template <int PACKS>
void launch_packs(const __nv_bfloat16* input, const __nv_bfloat16* weight, __nv_bfloat16* output, int M, int N,
                  float eps, int threads, cudaStream_t stream) {
    const long long row_bytes = static_cast<long long>(N) * sizeof(__nv_bfloat16);
    if (rows_aligned(input, row_bytes) && rows_aligned(output, row_bytes) && rows_aligned(weight, 0))
        rmsnorm_bf16_fast_kernel<PACKS, true><<<M, threads, 0, stream>>>(input, weight, output, N, eps);
    else
        rmsnorm_bf16_fast_kernel<PACKS, false><<<M, threads, 0, stream>>>(input, weight, output, N, eps);
}

}  // namespace

void launch_rmsnorm_bf16_fast(const __nv_bfloat16* input, const __nv_bfloat16* weight, __nv_bfloat16* output, int M,
                              int N, float eps, cudaStream_t stream) {
    if (M <= 0 || N <= 0) return;
    const int row_packs = (N + VEC - 1) / VEC;  // at most: a misaligned row has one whole pack fewer
    const int packs = pick_packs(row_packs);
    // Threads to hold the row with that many packs each, a whole number of warps, at most 1024 (longer rows reread).
    const int threads = min(kMaxThreads, max(32, round_up_to_warp((row_packs + packs - 1) / packs)));
    switch (packs) {
        case 1: launch_packs<1>(input, weight, output, M, N, eps, threads, stream); break;
        case 2: launch_packs<2>(input, weight, output, M, N, eps, threads, stream); break;
        default: launch_packs<4>(input, weight, output, M, N, eps, threads, stream); break;
    }
}
