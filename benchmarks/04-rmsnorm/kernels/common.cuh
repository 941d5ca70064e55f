// Helpers shared by the reference kernels of lesson 04 (rmsnorm.cu, fused_add_rmsnorm.cu in this folder): element
// conversions, the 16-byte pack, alignment arithmetic, the row reductions, and the start of a kernel under
// programmatic dependent launch with the host helper that launches one. Header-only, so that each kernel file stays
// self-contained apart from this one include.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "../../common/pdl_launch.cuh"

namespace rmsref {

// --- elements ----------------------------------------------------------------------------------------------------

// Exact widening to fp32 and round-to-nearest-even narrowing, spelled out per type so that no implicit conversion
// decides the rounding.
__device__ __forceinline__ float to_float(float v) { return v; }
__device__ __forceinline__ float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }
__device__ __forceinline__ float to_float(__half v) { return __half2float(v); }

template <typename T>
__device__ __forceinline__ T from_float(float v);
template <>
__device__ __forceinline__ float from_float<float>(float v) {
    return v;
}
template <>
__device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float v) {
    return __float2bfloat16_rn(v);
}
template <>
__device__ __forceinline__ __half from_float<__half>(float v) {
    return __float2half_rn(v);
}

// The output element from the fp32 input value x, the row's inverse RMS and the weight. fp32: x * inv_rms * w, in
// that order (the lesson's fp32 contract). 16-bit types: round the normalised value to T before the weight is
// applied, then round again (the Llama / vLLM order the lesson's 16-bit exercises use).
template <typename T>
__device__ __forceinline__ T normalize(float x, float inv_rms, float w) {
    return from_float<T>(to_float(from_float<T>(x * inv_rms)) * w);
}
template <>
__device__ __forceinline__ float normalize<float>(float x, float inv_rms, float w) {
    return x * inv_rms * w;
}

// --- 16-byte packs -------------------------------------------------------------------------------------------------

constexpr unsigned kPackBytes = 16;  // the widest load or store one thread can issue

// Sixteen bytes of T: 4 floats or 8 bf16/fp16 values, moved by one LDG.128 / STG.128.
template <typename T>
struct alignas(16) Pack {
    static constexpr int kN = kPackBytes / sizeof(T);
    T v[kN];
};

template <typename T>
__device__ __forceinline__ Pack<T> load_pack(const T* p) {
    return *reinterpret_cast<const Pack<T>*>(p);
}
// The weight is read by every row, so it goes through the read-only (non-coherent) path that keeps it in L1.
template <typename T>
__device__ __forceinline__ Pack<T> load_pack_ro(const T* p) {
    const int4 raw = __ldg(reinterpret_cast<const int4*>(p));
    Pack<T> out;
    static_assert(sizeof(out) == sizeof(raw), "a pack is 16 bytes");
    __builtin_memcpy(&out, &raw, sizeof(out));
    return out;
}
template <typename T>
__device__ __forceinline__ void store_pack(T* p, const Pack<T>& v) {
    *reinterpret_cast<Pack<T>*>(p) = v;
}

// Loads and stores of a pack with the streaming hint when STREAM (the kOptStream option of launch_shape.h).
template <bool STREAM, typename T>
__device__ __forceinline__ Pack<T> load_pack_hinted(const T* p) {
    if constexpr (STREAM) {
        const int4 raw = __ldcs(reinterpret_cast<const int4*>(p));
        Pack<T> out;
        __builtin_memcpy(&out, &raw, sizeof(out));
        return out;
    } else {
        return load_pack(p);
    }
}
template <bool STREAM, typename T>
__device__ __forceinline__ void store_pack_hinted(T* p, const Pack<T>& v) {
    if constexpr (STREAM) {
        int4 raw;
        __builtin_memcpy(&raw, &v, sizeof(raw));
        __stcs(reinterpret_cast<int4*>(p), raw);
    } else {
        store_pack(p, v);
    }
}

// Hides from the compiler that the pack still holds the values it was loaded with. Without it, the compiler keeps the
// fp32 widening of every 16-bit element (computed for the sum of squares) alive until the output is written: twice
// the registers of the packed values, which spills at 4 and 8 packs per thread. After this, it widens them again,
// one cheap shift per element.
template <typename T>
__device__ __forceinline__ void forget_widened(Pack<T>& p) {
    if constexpr (sizeof(T) < 4) {
        unsigned words[4];
        __builtin_memcpy(words, &p, sizeof(words));
#pragma unroll
        for (int k = 0; k < 4; ++k) asm("" : "+r"(words[k]));
        __builtin_memcpy(&p, words, sizeof(words));
    }
}

// --- whole packs: the arithmetic of the contract, two 16-bit elements per instruction -----------------------------

// The 16-bit pair types, so that one template spells the paired operations for bf16 and fp16.
__device__ __forceinline__ float2 widen_pair(__nv_bfloat162 v) { return __bfloat1622float2(v); }
__device__ __forceinline__ float2 widen_pair(__half2 v) { return __half22float2(v); }
template <typename P>
__device__ __forceinline__ P narrow_pair(float a, float b);
template <>
__device__ __forceinline__ __nv_bfloat162 narrow_pair<__nv_bfloat162>(float a, float b) {
    return __floats2bfloat162_rn(a, b);
}
template <>
__device__ __forceinline__ __half2 narrow_pair<__half2>(float a, float b) {
    return __floats2half2_rn(a, b);
}
template <typename T>
struct PairOf;
template <>
struct PairOf<__nv_bfloat16> {
    using type = __nv_bfloat162;
};
template <>
struct PairOf<__half> {
    using type = __half2;
};

// normalize<T> over a pack. For 16-bit types it is the same function computed with fewer instructions, and that is
// what brings the bf16 kernel to the roofline: written element by element, each element costs two fp32 -> 16-bit
// conversions, 16 per pack, and the conversion unit of a Hopper multiprocessor is a narrow one, so those were the
// kernel's bottleneck, not memory (the fused add, with fewer conversions per byte, already ran at the copy's speed).
// Here the first rounding converts two elements per instruction (F2FP ... PACK_AB), and the second, T(float(n) * w),
// is a paired 16-bit multiply (HMUL2): the product of two 8-bit (bf16) or 11-bit (fp16) significands is exact in
// fp32, so rounding it to T once is exactly what the hardware's rounded 16-bit product gives. 4 conversions per
// pack instead of 16, the same bits.
template <typename T>
__device__ __forceinline__ Pack<T> normalize_pack(const Pack<T>& x, float inv_rms, const Pack<T>& w) {
    Pack<T> out;
    if constexpr (sizeof(T) == 4) {
#pragma unroll
        for (int k = 0; k < Pack<T>::kN; ++k) out.v[k] = normalize<T>(to_float(x.v[k]), inv_rms, to_float(w.v[k]));
    } else {
        using P = typename PairOf<T>::type;
        P xp[4], wp[4], op[4];
        __builtin_memcpy(xp, &x, sizeof(xp));
        __builtin_memcpy(wp, &w, sizeof(wp));
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const float2 f = widen_pair(xp[k]);
            op[k] = __hmul2(narrow_pair<P>(f.x * inv_rms, f.y * inv_rms), wp[k]);
        }
        __builtin_memcpy(&out, op, sizeof(out));
    }
    return out;
}

// T(a + b) over a pack (the fused add's new residual). For 16-bit types a paired 16-bit add: fp32 has more than
// twice T's significand bits plus two, so rounding the fp32 sum to T gives the correctly rounded sum (double rounding
// is harmless there), which is what HADD2 computes. One instruction per two elements instead of three.
template <typename T>
__device__ __forceinline__ Pack<T> add_pack(const Pack<T>& a, const Pack<T>& b) {
    Pack<T> out;
    if constexpr (sizeof(T) == 4) {
#pragma unroll
        for (int k = 0; k < Pack<T>::kN; ++k) out.v[k] = a.v[k] + b.v[k];
    } else {
        using P = typename PairOf<T>::type;
        P ap[4], bp[4], op[4];
        __builtin_memcpy(ap, &a, sizeof(ap));
        __builtin_memcpy(bp, &b, sizeof(bp));
#pragma unroll
        for (int k = 0; k < 4; ++k) op[k] = __hadd2(ap[k], bp[k]);
        __builtin_memcpy(&out, op, sizeof(out));
    }
    return out;
}

// Reads the pack of elements p[0..kN) as one 16-byte load when `as_pack` says p is 16-byte aligned, element by
// element otherwise (a weight or output that does not share the input row's offset from a 16-byte boundary).
template <typename T>
__device__ __forceinline__ Pack<T> load_pack_or_elements(const T* p, bool as_pack) {
    if (as_pack) return load_pack(p);
    Pack<T> out;
#pragma unroll
    for (int k = 0; k < Pack<T>::kN; ++k) out.v[k] = p[k];
    return out;
}
template <typename T>
__device__ __forceinline__ Pack<T> load_pack_or_elements_ro(const T* p, bool as_pack) {
    if (as_pack) return load_pack_ro(p);
    Pack<T> out;
#pragma unroll
    for (int k = 0; k < Pack<T>::kN; ++k) out.v[k] = __ldg(p + k);
    return out;
}
template <typename T>
__device__ __forceinline__ void store_pack_or_elements(T* p, const Pack<T>& v, bool as_pack) {
    if (as_pack) {
        store_pack(p, v);
        return;
    }
#pragma unroll
    for (int k = 0; k < Pack<T>::kN; ++k) p[k] = v.v[k];
}

// --- alignment -------------------------------------------------------------------------------------------------------

// Bytes by which p lies past the previous 16-byte boundary (0 when aligned).
__device__ __forceinline__ unsigned misalignment(const void* p) {
    return static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(p) & (kPackBytes - 1));
}

// A row is walked in three parts: the `prefix` single elements before its first 16-byte boundary, `packs` whole
// packs, and the single elements after the last whole pack (the tail). prefix + tail < 2 * kN.
struct RowSplit {
    int prefix;      // elements [0, prefix) are single
    int packs;       // pack i covers elements [prefix + i*kN, prefix + (i+1)*kN)
    int tail_start;  // elements [tail_start, n) are single
    int singles;     // prefix + (n - tail_start)
    // Column of the e-th single element (e < singles): the prefix first, then the tail.
    __device__ __forceinline__ int single_column(int e) const { return e < prefix ? e : tail_start + (e - prefix); }
};

// ALIGNED: the launcher has checked that every row of every operand starts on a 16-byte boundary (aligned pointers,
// row strides a multiple of 16 bytes) and holds whole packs (n a multiple of kN), so prefix and tail are empty at
// compile time and every operand moves as packs. That
// is the common case, and what the fast path is for: the misaligned walk's prefix and its per-operand choice between
// a pack and 8 single elements cost registers (both paths' addresses stay live), and registers decide how many rows a
// multiprocessor has in flight.
template <bool ALIGNED = false, typename T>
__device__ __forceinline__ RowSplit split_row(const T* row, int n) {
    constexpr int kN = Pack<T>::kN;
    RowSplit s;
    if constexpr (ALIGNED) {
        // The launcher has also checked that n is a whole number of packs: no single element at either end, known
        // at compile time, so the single-element code of the kernels is not even compiled in.
        s.prefix = 0;
        s.packs = n / kN;
        s.tail_start = n;
        s.singles = 0;
        return s;
    }
    const int to_boundary = static_cast<int>(((kPackBytes - misalignment(row)) % kPackBytes) / sizeof(T));
    s.prefix = to_boundary < n ? to_boundary : n;
    s.packs = (n - s.prefix) / kN;
    s.tail_start = s.prefix + s.packs * kN;
    s.singles = s.prefix + (n - s.tail_start);
    return s;
}

// Host side: whether a pointer, and every row after it at `stride_bytes`, starts on a 16-byte boundary.
inline bool rows_aligned(const void* p, long long stride_bytes) {
    return (reinterpret_cast<std::uintptr_t>(p) % kPackBytes) == 0 && stride_bytes % kPackBytes == 0;
}

// --- programmatic dependent launch -----------------------------------------------------------------------------

// The first statement of every kernel here: lets the next launch in the stream be scheduled once every block of this
// one has started, then waits until the previous grid has completed and its writes are visible, before anything is
// read or written. For a launch without programmatic stream serialization (every launch of the rule) the stream has
// already ordered the grids and both return at once; with it (LaunchShape::pdl) the next grid's blocks sit resident
// and waiting while this one's last blocks drain. griddepcontrol is sm_90's; compiled out for older targets.
// -DRMSREF_NO_PDL builds the kernels without the pair and without the "+pdl" launch mode (launch_shape refuses it):
// the build against which gpu-session8.sh measures what the pair costs the plain launches.
#ifdef RMSREF_NO_PDL
constexpr bool kPdlBuilt = false;
#else
constexpr bool kPdlBuilt = true;
#endif
__device__ __forceinline__ void start_after_previous_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 && !defined(RMSREF_NO_PDL)
    cudaTriggerProgrammaticLaunchCompletion();
    cudaGridDependencySynchronize();
#endif
}

// Host side, the launchers' one way to launch an instance, with `pdl` under programmatic dependent launch: the
// benchmarks' shared launcher (../../common/pdl_launch.cuh), which the roofline's copies use too.
template <typename... P, typename... A>
void launch_kernel(bool pdl, void (*kernel)(P...), int grid, int threads, int smem, cudaStream_t stream, A... args) {
    bench::launch_maybe_pdl(pdl, kernel, grid, threads, smem, stream, args...);
}

// --- reductions ----------------------------------------------------------------------------------------------------

// Sum over aligned groups of LANES consecutive lanes of a warp (LANES a power of two <= 32); every lane of the group
// gets the group's sum. All 32 lanes of the warp must call it.
template <int LANES>
__device__ __forceinline__ float group_sum(float v) {
#pragma unroll
    for (int offset = LANES / 2; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffffu, v, offset);
    return v;
}

// Sum over the whole block (blockDim.x a multiple of 32, at most 1024); every thread gets the sum. One barrier:
// after it each warp reduces the per-warp partials itself instead of waiting for warp 0 to broadcast them. Called at
// most once per block (the partials are not protected against a second call). `warp_partials` is the kernel's
// `__shared__ float[32]` (declared in the kernel, where the CPU emulator's rewriter sees shared declarations).
// (Adding the partials from 16-byte shared loads instead of the second round of shuffles was tried, 2026-12-01 session
// 4: ptxas hoists those loads and holds their registers beside the row's, 28 -> 38 to 48 registers a thread for the
// whole-block instances, fewer threads per multiprocessor; so not.)
__device__ __forceinline__ float block_sum(float v, float* warp_partials) {
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    const int warps = blockDim.x >> 5;
    v = group_sum<32>(v);
    if (lane == 0) warp_partials[warp] = v;
    __syncthreads();
    v = lane < warps ? warp_partials[lane] : 0.0f;
    return group_sum<32>(v);
}

}  // namespace rmsref

// The launch-shape dispatch both reference kernels share. The includer defines RMSREF_LAUNCH(L, P, EARLY, ALIGNED,
// OPT), which launches its own kernel instance, and expands RMSREF_DISPATCH_SHAPES() in its launcher, where the shape
// `s`, `aligned` and `opt` are in scope: each (lanes, packs) instance the rule can pick, with the options (the bits of
// kOptCap | kOptStream | kOptLoadsFirst | kOptSharedH, launch_shape.h) only for the ALIGNED whole-block instances of
// at most 4 packs (both kernels have the eight variants of the first three bits; kOptSharedH only the fused add, and
// the norm's launcher refuses it before this dispatch, so its OPT 8..15 name the same instances as 0..7).
#define RMSREF_OPTS(L, P, EARLY)                                  \
    if constexpr ((L) == 0 && (P) <= 4) {                         \
        switch (opt) {                                            \
            case 1: RMSREF_LAUNCH(L, P, EARLY, true, 1); break;   \
            case 2: RMSREF_LAUNCH(L, P, EARLY, true, 2); break;   \
            case 3: RMSREF_LAUNCH(L, P, EARLY, true, 3); break;   \
            case 4: RMSREF_LAUNCH(L, P, EARLY, true, 4); break;   \
            case 5: RMSREF_LAUNCH(L, P, EARLY, true, 5); break;   \
            case 6: RMSREF_LAUNCH(L, P, EARLY, true, 6); break;   \
            case 7: RMSREF_LAUNCH(L, P, EARLY, true, 7); break;   \
            case 8: RMSREF_LAUNCH(L, P, EARLY, true, 8); break;   \
            case 9: RMSREF_LAUNCH(L, P, EARLY, true, 9); break;   \
            case 10: RMSREF_LAUNCH(L, P, EARLY, true, 10); break; \
            case 11: RMSREF_LAUNCH(L, P, EARLY, true, 11); break; \
            case 12: RMSREF_LAUNCH(L, P, EARLY, true, 12); break; \
            case 13: RMSREF_LAUNCH(L, P, EARLY, true, 13); break; \
            case 14: RMSREF_LAUNCH(L, P, EARLY, true, 14); break; \
            case 15: RMSREF_LAUNCH(L, P, EARLY, true, 15); break; \
            default: RMSREF_LAUNCH(L, P, EARLY, true, 0); break;  \
        }                                                         \
    } else {                                                      \
        RMSREF_LAUNCH(L, P, EARLY, true, 0);                      \
    }
#define RMSREF_SHAPE(L, P)                                           \
    if (s.lanes == (L) && s.packs == (P)) {                          \
        if (aligned) {                                               \
            if (s.weight_early) {                                    \
                RMSREF_OPTS(L, P, true)                              \
            } else {                                                 \
                RMSREF_OPTS(L, P, false)                             \
            }                                                        \
        } else {                                                     \
            if (s.weight_early) RMSREF_LAUNCH(L, P, true, false, 0); \
            else RMSREF_LAUNCH(L, P, false, false, 0);               \
        }                                                            \
        return true;                                                 \
    }
#define RMSREF_DISPATCH_SHAPES() \
    RMSREF_SHAPE(0, 1)           \
    RMSREF_SHAPE(0, 2)           \
    RMSREF_SHAPE(0, 4)           \
    RMSREF_SHAPE(0, 8)           \
    RMSREF_SHAPE(4, 1)           \
    RMSREF_SHAPE(4, 2)           \
    RMSREF_SHAPE(4, 4)           \
    RMSREF_SHAPE(8, 1)           \
    RMSREF_SHAPE(8, 2)           \
    RMSREF_SHAPE(8, 4)           \
    RMSREF_SHAPE(16, 1)          \
    RMSREF_SHAPE(16, 2)          \
    RMSREF_SHAPE(16, 4)          \
    RMSREF_SHAPE(32, 1)          \
    RMSREF_SHAPE(32, 2)          \
    RMSREF_SHAPE(32, 4)
