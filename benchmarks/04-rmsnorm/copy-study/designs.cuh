// The copy kernels of the copy study (copy_study.cu): dst <- src, `bytes` a multiple of 16, both 16-byte aligned,
// each a different answer to "how does a kernel keep the most bytes in flight": grid-stride loops with 1, 2 or 4
// items in flight per thread of 16 or 32 bytes each, one block a 2 KiB row (as the bf16 norm at N = 1024 runs), with
// and without a barrier between the loads and the stores (the norm's reduction), and a persistent grid that walks the
// rows. The cache hints are a template parameter. The bulk-copy (TMA) kernels and the launch-overlap variant are in
// bulk.cuh. Device code and their launchers; COPY_STUDY_PORTABLE (the CPU emulator's build) leaves out the hints that
// need inline PTX, which the emulator cannot run.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace copystudy {

// How a 16-byte item is read and written.
//   kPlain:  ld.global / st.global
//   kStream: __ldcs / __stcs (ld.global.cs / st.global.cs: evict first, the data is not touched again)
//   kNoAlloc: ld.global.nc.L1::no_allocate (read-only path, no L1 line) / st.global.cs
//   kEvictL2: ld.global.nc.L1::no_allocate / st.global, both with an L2 cache policy of evict_first
//             (createpolicy; sm_90 takes the L2 priority only as such a policy)
//   kPrefetch: ld.global.nc.L1::no_allocate.L2::256B (the L2 fetches 256 bytes per miss) / st.global.cs
enum Hint { kPlain, kStream, kNoAlloc, kEvictL2, kPrefetch };

inline const char* hint_name(Hint h) {
    switch (h) {
        case kPlain: return "";
        case kStream: return "+cs";
        case kNoAlloc: return "+nc";
        case kEvictL2: return "+l2ef";
        case kPrefetch: return "+l2pf";
    }
    return "?";
}

template <Hint H>
__device__ __forceinline__ int4 load16(const int4* p) {
    if constexpr (H == kStream) return __ldcs(p);
#ifndef COPY_STUDY_PORTABLE
    if constexpr (H == kNoAlloc || H == kEvictL2 || H == kPrefetch) {
        int4 v;
        if constexpr (H == kNoAlloc)
            asm volatile("ld.global.nc.L1::no_allocate.v4.s32 {%0, %1, %2, %3}, [%4];"
                         : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                         : "l"(p));
        else if constexpr (H == kEvictL2)
            asm volatile(
                "{\n .reg .b64 pol;\n createpolicy.fractional.L2::evict_first.b64 pol, 1.0;\n"
                " ld.global.nc.L1::no_allocate.L2::cache_hint.v4.s32 {%0, %1, %2, %3}, [%4], pol;\n}"
                : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                : "l"(p));
        else
            asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v4.s32 {%0, %1, %2, %3}, [%4];"
                         : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                         : "l"(p));
        return v;
    }
#endif
    return *p;
}

template <Hint H>
__device__ __forceinline__ void store16(int4* p, int4 v) {
    if constexpr (H == kPlain) {
        *p = v;
    } else {
#ifndef COPY_STUDY_PORTABLE
        if constexpr (H == kEvictL2) {
            asm volatile(
                "{\n .reg .b64 pol;\n createpolicy.fractional.L2::evict_first.b64 pol, 1.0;\n"
                " st.global.L2::cache_hint.v4.s32 [%0], {%1, %2, %3, %4}, pol;\n}" ::"l"(p),
                "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w)
                : "memory");
            return;
        }
#endif
        __stcs(p, v);
    }
}

// Grid-stride: item i of VEC contiguous 16-byte words (VEC = 1: 16 bytes a thread, 2: 32 bytes), ITEMS items a
// thread loaded before the first is stored (ITEMS in flight), the items of one iteration a grid's width apart so
// that each load instruction of a warp reads consecutive bytes. An iteration of the grid covers ITEMS * step words;
// the words after the last whole one are copied one at a time.
template <int VEC, int ITEMS, Hint H>
__global__ void grid_stride_kernel(int4* __restrict__ dst, const int4* __restrict__ src, size_t words) {
    const size_t threads = size_t(gridDim.x) * blockDim.x;
    const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const size_t step = threads * VEC;  // words between two items of one thread
    const size_t whole = words / (ITEMS * step) * (ITEMS * step);
    for (size_t base = t * VEC; base < whole; base += ITEMS * step) {
        int4 v[ITEMS][VEC];
#pragma unroll
        for (int i = 0; i < ITEMS; ++i)
#pragma unroll
            for (int k = 0; k < VEC; ++k) v[i][k] = load16<H>(src + base + i * step + k);
#pragma unroll
        for (int i = 0; i < ITEMS; ++i)
#pragma unroll
            for (int k = 0; k < VEC; ++k) store16<H>(dst + base + i * step + k, v[i][k]);
    }
    for (size_t w = whole + t; w < words; w += threads) store16<H>(dst + w, load16<H>(src + w));
}

// One block (or, LANES < blockDim.x, one group of LANES threads) a row of ROW_WORDS 16-byte words, PACKS words a
// thread, all loaded before the first store; SYNC: a block barrier between the loads and the stores, where the
// norm has its reduction's (so the difference to the same shape without it is what the barrier's structure costs).
template <int LANES, int PACKS, bool SYNC, Hint H>
__global__ void row_kernel(int4* __restrict__ dst, const int4* __restrict__ src, int rows, int row_words) {
    const int rows_per_block = blockDim.x / LANES;
    const int row = blockIdx.x * rows_per_block + threadIdx.x / LANES;
    const int lane = threadIdx.x % LANES;
    const bool live = row < rows;
    const int4* s = src + size_t(live ? row : 0) * row_words;
    int4* d = dst + size_t(live ? row : 0) * row_words;
    int4 v[PACKS];
#pragma unroll
    for (int i = 0; i < PACKS; ++i)
        if (live && lane + i * LANES < row_words) v[i] = load16<H>(s + lane + i * LANES);
    if constexpr (SYNC) __syncthreads();
#pragma unroll
    for (int i = 0; i < PACKS; ++i)
        if (live && lane + i * LANES < row_words) store16<H>(d + lane + i * LANES, v[i]);
}

// A persistent grid: each group of LANES threads walks rows r, r + groups, … (groups = every group of the grid),
// ROWS_IN_FLIGHT rows loaded before the first is stored.
template <int LANES, int PACKS, int ROWS_IN_FLIGHT, Hint H>
__global__ void persistent_rows_kernel(int4* __restrict__ dst, const int4* __restrict__ src, int rows, int row_words) {
    const int groups = gridDim.x * (blockDim.x / LANES);
    const int group = blockIdx.x * (blockDim.x / LANES) + threadIdx.x / LANES;
    const int lane = threadIdx.x % LANES;
    for (int r0 = group; r0 < rows; r0 += groups * ROWS_IN_FLIGHT) {
        int4 v[ROWS_IN_FLIGHT][PACKS];
#pragma unroll
        for (int k = 0; k < ROWS_IN_FLIGHT; ++k) {
            const int r = r0 + k * groups;
#pragma unroll
            for (int i = 0; i < PACKS; ++i)
                if (r < rows && lane + i * LANES < row_words)
                    v[k][i] = load16<H>(src + size_t(r) * row_words + lane + i * LANES);
        }
#pragma unroll
        for (int k = 0; k < ROWS_IN_FLIGHT; ++k) {
            const int r = r0 + k * groups;
#pragma unroll
            for (int i = 0; i < PACKS; ++i)
                if (r < rows && lane + i * LANES < row_words)
                    store16<H>(dst + size_t(r) * row_words + lane + i * LANES, v[k][i]);
        }
    }
}

}  // namespace copystudy
