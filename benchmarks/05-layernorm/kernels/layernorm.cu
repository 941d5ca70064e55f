// Reference LayerNorm of lesson 05 at the memory roofline: fp32, bf16 and fp16, and the fused residual add, from one
// template. Built on lesson 04's reference kernels (their 16-byte packs, misaligned-row walk, reductions and launch
// shapes, ../../04-rmsnorm/kernels/): LayerNorm adds a second statistic and a bias, and nothing else changes.
//
// What makes it fast:
//   1. the row stays in registers: x is read from memory once, although the statistics take two passes over it (the
//      mean, then the squared distances from the mean: the lesson's two-pass statistics, without E[x^2] - E[x]^2's
//      cancellation) and the output a third;
//   2. 16-byte packs for x, the weight, the bias and the output;
//   3. the launch shape follows the hidden size (lesson 04's rule): short rows share a warp, long rows get a block;
//   4. for 16-bit types the output's rounding converts two elements per instruction (the conversions, not memory,
//      limited lesson 04's first bf16 kernel);
//   5. weight and bias are loaded before the reductions (latency hidden behind them) or after (fewer registers held
//      across them), as the launch shape says.
//
// Rows are contiguous (row r starts at r * N), as in the exercises. Weight, bias, residual and output move as packs
// when they share the input row's offset from a 16-byte boundary, element by element otherwise.
#include "../../04-rmsnorm/kernels/common.cuh"
#include "reference.h"

namespace lnref {
namespace {

using rmsref::Pack;

// The output element from the fp32 input value, the row's statistics, weight and bias, before its one rounding.
// fp32: the contract's order. 16-bit types: (x * rstd - mean * rstd) * w + b as two FMAs (mean * rstd is the same for
// the whole row), one instruction per element fewer; x * rstd is exact inside the FMA, so the difference from
// (x - mean) * rstd is one fp32 rounding of a value of x's magnitude, far below the 16-bit rounding that follows.
template <typename T>
__device__ __forceinline__ float affine(float x, float mean, float rstd, float w, float b) {
    if constexpr (sizeof(T) == 4) return (x - mean) * rstd * w + b;
    else return fmaf(fmaf(x, rstd, -mean * rstd), w, b);
}

template <typename T>
__device__ __forceinline__ Pack<T> layernorm_pack(const Pack<T>& x, float mean, float rstd, const Pack<T>& w,
                                                  const Pack<T>& b) {
    Pack<T> out;
    if constexpr (sizeof(T) == 4) {
#pragma unroll
        for (int k = 0; k < Pack<T>::kN; ++k) out.v[k] = affine<T>(x.v[k], mean, rstd, w.v[k], b.v[k]);
    } else {
        using P = typename rmsref::PairOf<T>::type;
        P xp[4], wp[4], bp[4], op[4];
        __builtin_memcpy(xp, &x, sizeof(xp));
        __builtin_memcpy(wp, &w, sizeof(wp));
        __builtin_memcpy(bp, &b, sizeof(bp));
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const float2 xf = rmsref::widen_pair(xp[k]), wf = rmsref::widen_pair(wp[k]), bf = rmsref::widen_pair(bp[k]);
            op[k] = rmsref::narrow_pair<P>(affine<T>(xf.x, mean, rstd, wf.x, bf.x),
                                           affine<T>(xf.y, mean, rstd, wf.y, bf.y));
        }
        __builtin_memcpy(&out, op, sizeof(out));
    }
    return out;
}

// The row's sum over its LANES lanes (LANES = 0: the block; `partials` is that reduction's own shared array, so the
// two reductions of a row need no barrier between them beyond their own).
template <int LANES>
__device__ __forceinline__ float row_sum(float v, float* partials) {
    if constexpr (LANES > 0) return rmsref::group_sum<LANES>(v);
    else return rmsref::block_sum(v, partials);
}

// One row per LANES lanes (LANES = 0: per block), PACKS packs per lane held in registers. FUSED: h = T(x + residual)
// is written back to the residual and normalised. PARAMS_EARLY: weight and bias are loaded before the reductions.
// ALIGNED: every row of every operand starts on a 16-byte boundary (the launcher checks; lesson 04's split_row).
template <typename T, int LANES, int PACKS, bool FUSED, bool PARAMS_EARLY, bool ALIGNED>
__global__ void __launch_bounds__(rmsref::max_threads(LANES, PACKS))
    layernorm_regs_kernel(const T* input, T* residual, const T* __restrict__ weight, const T* __restrict__ bias,
                          T* output, int M, int N, float eps) {
    using namespace rmsref;
    constexpr int kN = Pack<T>::kN;
    constexpr int kSingles = (2 * (kN - 1) + (LANES > 0 ? LANES : 32) - 1) / (LANES > 0 ? LANES : 32);
    const int lanes = LANES > 0 ? LANES : static_cast<int>(blockDim.x);
    const int lane = LANES > 0 ? static_cast<int>(threadIdx.x) % LANES : static_cast<int>(threadIdx.x);
    const long long row = LANES > 0 ? static_cast<long long>(blockIdx.x) * (blockDim.x / LANES) + threadIdx.x / LANES
                                    : static_cast<long long>(blockIdx.x);
    // A group past the last row still joins its warp's shuffles; it loads and stores nothing.
    const bool live = row < M;
    const long long offset = (live ? row : 0) * static_cast<long long>(N);
    const T* x = input + offset;
    T* r = FUSED ? residual + offset : nullptr;
    T* y = output + offset;
    const RowSplit split = split_row<ALIGNED>(x, live ? N : 0);
    const unsigned x_mis = misalignment(x);
    const bool residual_packs = FUSED && (ALIGNED || misalignment(r) == x_mis);
    const bool weight_packs = ALIGNED || misalignment(weight) == x_mis;
    const bool bias_packs = ALIGNED || misalignment(bias) == x_mis;

    // Load the row (fused: add the residual and write the sum back) and sum it.
    Pack<T> hs[PACKS];
    float sum = 0.0f;
#pragma unroll
    for (int i = 0; i < PACKS; ++i) {
        const int p = lane + i * lanes;
        if (p < split.packs) {
            const int col = split.prefix + p * kN;
            hs[i] = load_pack(x + col);
            if constexpr (FUSED) {
                hs[i] = add_pack(hs[i], load_pack_or_elements(r + col, residual_packs));
                store_pack_or_elements(r + col, hs[i], residual_packs);
            }
#pragma unroll
            for (int k = 0; k < kN; ++k) sum += to_float(hs[i].v[k]);
            forget_widened(hs[i]);
        }
    }
    T singles[kSingles];
#pragma unroll
    for (int j = 0; j < kSingles; ++j) {
        const int e = lane + j * lanes;
        if (e < split.singles) {
            const int col = split.single_column(e);
            singles[j] = x[col];
            if constexpr (FUSED) {
                singles[j] = from_float<T>(to_float(singles[j]) + to_float(r[col]));
                r[col] = singles[j];
            }
            sum += to_float(singles[j]);
        }
    }

    Pack<T> ws[PACKS], bs[PACKS];
    auto load_params = [&] {
#pragma unroll
        for (int i = 0; i < PACKS; ++i) {
            const int p = lane + i * lanes;
            if (p < split.packs) {
                ws[i] = load_pack_or_elements_ro(weight + split.prefix + p * kN, weight_packs);
                bs[i] = load_pack_or_elements_ro(bias + split.prefix + p * kN, bias_packs);
            }
        }
    };
    if constexpr (PARAMS_EARLY) load_params();

    __shared__ float sum_partials[32];
    __shared__ float sq_partials[32];
    const float mean = row_sum<LANES>(sum, sum_partials) / static_cast<float>(N);

    // The squared distances from the mean, from the same registers.
    float sq = 0.0f;
#pragma unroll
    for (int i = 0; i < PACKS; ++i) {
        const int p = lane + i * lanes;
        if (p < split.packs) {
#pragma unroll
            for (int k = 0; k < kN; ++k) {
                const float d = to_float(hs[i].v[k]) - mean;
                sq += d * d;
            }
            forget_widened(hs[i]);
        }
    }
#pragma unroll
    for (int j = 0; j < kSingles; ++j) {
        if (lane + j * lanes < split.singles) {
            const float d = to_float(singles[j]) - mean;
            sq += d * d;
        }
    }
    const float rstd = rsqrtf(row_sum<LANES>(sq, sq_partials) / static_cast<float>(N) + eps);

    if constexpr (!PARAMS_EARLY) load_params();
    const bool output_packs = ALIGNED || misalignment(y) == x_mis;
#pragma unroll
    for (int i = 0; i < PACKS; ++i) {
        const int p = lane + i * lanes;
        if (p < split.packs)
            store_pack_or_elements(y + split.prefix + p * kN, layernorm_pack(hs[i], mean, rstd, ws[i], bs[i]),
                                   output_packs);
    }
#pragma unroll
    for (int j = 0; j < kSingles; ++j) {
        const int e = lane + j * lanes;
        if (e < split.singles) {
            const int col = split.single_column(e);
            const float w = to_float(__ldg(weight + col)), b = to_float(__ldg(bias + col));
            y[col] = from_float<T>(affine<T>(to_float(singles[j]), mean, rstd, w, b));
        }
    }
}

// Rows longer than the registers of a block hold: three passes over memory (sum, squared distances, output), the
// second and third rereading x (fused: the residual this thread wrote itself, same walk in every pass).
template <typename T, bool FUSED>
__global__ void __launch_bounds__(rmsref::kMaxThreads)
    layernorm_three_pass_kernel(const T* input, T* residual, const T* __restrict__ weight, const T* __restrict__ bias,
                                T* output, int N, float eps) {
    using namespace rmsref;
    constexpr int kN = Pack<T>::kN;
    const long long offset = static_cast<long long>(blockIdx.x) * N;
    const T* x = input + offset;
    T* r = FUSED ? residual + offset : nullptr;
    T* y = output + offset;
    const RowSplit split = split_row(x, N);
    const unsigned x_mis = misalignment(x);
    const bool residual_packs = FUSED && misalignment(r) == x_mis;
    const bool weight_packs = misalignment(weight) == x_mis;
    const bool bias_packs = misalignment(bias) == x_mis;
    const bool output_packs = misalignment(y) == x_mis;
    // The row as this pass sees it: after pass 1 the fused kernel reads the sums it wrote.
    const T* h = FUSED ? r : x;
    const bool h_packs = FUSED ? residual_packs : true;

    float sum = 0.0f;
    for (int p = threadIdx.x; p < split.packs; p += blockDim.x) {
        const int col = split.prefix + p * kN;
        Pack<T> v = load_pack(x + col);
        if constexpr (FUSED) {
            v = add_pack(v, load_pack_or_elements(r + col, residual_packs));
            store_pack_or_elements(r + col, v, residual_packs);
        }
#pragma unroll
        for (int k = 0; k < kN; ++k) sum += to_float(v.v[k]);
    }
    for (int e = threadIdx.x; e < split.singles; e += blockDim.x) {
        const int col = split.single_column(e);
        T v = x[col];
        if constexpr (FUSED) {
            v = from_float<T>(to_float(v) + to_float(r[col]));
            r[col] = v;
        }
        sum += to_float(v);
    }
    __shared__ float sum_partials[32];
    __shared__ float sq_partials[32];
    const float mean = block_sum(sum, sum_partials) / static_cast<float>(N);
    float sq = 0.0f;
    for (int p = threadIdx.x; p < split.packs; p += blockDim.x) {
        const Pack<T> v = load_pack_or_elements(h + split.prefix + p * kN, h_packs);
#pragma unroll
        for (int k = 0; k < kN; ++k) {
            const float d = to_float(v.v[k]) - mean;
            sq += d * d;
        }
    }
    for (int e = threadIdx.x; e < split.singles; e += blockDim.x) {
        const float d = to_float(h[split.single_column(e)]) - mean;
        sq += d * d;
    }
    const float rstd = rsqrtf(block_sum(sq, sq_partials) / static_cast<float>(N) + eps);
    for (int p = threadIdx.x; p < split.packs; p += blockDim.x) {
        const int col = split.prefix + p * kN;
        const Pack<T> v = load_pack_or_elements(h + col, h_packs);
        const Pack<T> w = load_pack_or_elements_ro(weight + col, weight_packs);
        const Pack<T> b = load_pack_or_elements_ro(bias + col, bias_packs);
        store_pack_or_elements(y + col, layernorm_pack(v, mean, rstd, w, b), output_packs);
    }
    for (int e = threadIdx.x; e < split.singles; e += blockDim.x) {
        const int col = split.single_column(e);
        y[col] = from_float<T>(
            affine<T>(to_float(h[col]), mean, rstd, to_float(__ldg(weight + col)), to_float(__ldg(bias + col))));
    }
}

template <typename T, bool FUSED>
bool launch_shape(const rmsref::LaunchShape& s, const T* input, T* residual, const T* weight, const T* bias, T* output,
                  int M, int N, float eps, cudaStream_t stream) {
    using rmsref::ceil_div;
    using rmsref::rows_aligned;
    if (M <= 0 || N <= 0) return true;
    if (s.lanes < 0) {
        layernorm_three_pass_kernel<T, FUSED>
            <<<M, s.threads, 0, stream>>>(input, residual, weight, bias, output, N, eps);
        return true;
    }
    // The registers must hold the whole row; a shape that does not fit is refused, never run short.
    const int lanes = s.lanes > 0 ? s.lanes : s.threads;
    if (s.threads % 32 != 0 || s.threads > rmsref::max_threads(s.lanes, s.packs) ||
        lanes * s.packs < rmsref::packs_per_row(N, sizeof(T)))
        return false;
    const int grid = ceil_div(M, s.lanes > 0 ? s.threads / s.lanes : 1);
    const long long row_bytes = static_cast<long long>(N) * sizeof(T);
    const bool aligned = rows_aligned(input, row_bytes) && (!FUSED || rows_aligned(residual, row_bytes)) &&
                         rows_aligned(output, row_bytes) && rows_aligned(weight, 0) && rows_aligned(bias, 0);
#define LNREF_LAUNCH(L, P, EARLY, ALIGNED)                \
    layernorm_regs_kernel<T, L, P, FUSED, EARLY, ALIGNED> \
        <<<grid, s.threads, 0, stream>>>(input, residual, weight, bias, output, M, N, eps)
#define LNREF_SHAPE(L, P)                                        \
    if (s.lanes == (L) && s.packs == (P)) {                      \
        if (aligned) {                                           \
            if (s.weight_early) LNREF_LAUNCH(L, P, true, true);  \
            else LNREF_LAUNCH(L, P, false, true);                \
        } else {                                                 \
            if (s.weight_early) LNREF_LAUNCH(L, P, true, false); \
            else LNREF_LAUNCH(L, P, false, false);               \
        }                                                        \
        return true;                                             \
    }
    LNREF_SHAPE(0, 1)
    LNREF_SHAPE(0, 2)
    LNREF_SHAPE(0, 4)
    LNREF_SHAPE(0, 8)
    LNREF_SHAPE(4, 1)
    LNREF_SHAPE(4, 2)
    LNREF_SHAPE(4, 4)
    LNREF_SHAPE(8, 1)
    LNREF_SHAPE(8, 2)
    LNREF_SHAPE(8, 4)
    LNREF_SHAPE(16, 1)
    LNREF_SHAPE(16, 2)
    LNREF_SHAPE(16, 4)
    LNREF_SHAPE(32, 1)
    LNREF_SHAPE(32, 2)
    LNREF_SHAPE(32, 4)
#undef LNREF_SHAPE
#undef LNREF_LAUNCH
    return false;
}

template <typename T>
bool launch_any(const rmsref::LaunchShape& s, const T* input, T* residual, const T* weight, const T* bias, T* output,
                int M, int N, float eps, cudaStream_t stream) {
    return residual ? launch_shape<T, true>(s, input, residual, weight, bias, output, M, N, eps, stream)
                    : launch_shape<T, false>(s, input, residual, weight, bias, output, M, N, eps, stream);
}

}  // namespace
}  // namespace lnref

#define LNREF_ENTRY(SUFFIX, T)                                                                                        \
    void ref_layernorm_##SUFFIX(const T* input, const T* weight, const T* bias, T* output, int M, int N, float eps,   \
                                cudaStream_t stream) {                                                                \
        lnref::launch_any<T>(lnref::choose_shape(N, sizeof(T), M, false), input, nullptr, weight, bias, output, M, N, \
                             eps, stream);                                                                            \
    }                                                                                                                 \
    bool ref_layernorm_shape_##SUFFIX(const rmsref::LaunchShape& shape, const T* input, T* residual, const T* weight, \
                                      const T* bias, T* output, int M, int N, float eps, cudaStream_t stream) {       \
        return lnref::launch_any<T>(shape, input, residual, weight, bias, output, M, N, eps, stream);                 \
    }
LNREF_ENTRY(fp32, float)
LNREF_ENTRY(bf16, __nv_bfloat16)
LNREF_ENTRY(fp16, __half)
#undef LNREF_ENTRY

void ref_fused_add_layernorm_bf16(const __nv_bfloat16* input, __nv_bfloat16* residual, const __nv_bfloat16* weight,
                                  const __nv_bfloat16* bias, __nv_bfloat16* output, int M, int N, float eps,
                                  cudaStream_t stream) {
    lnref::launch_shape<__nv_bfloat16, true>(lnref::choose_shape(N, 2, M, true), input, residual, weight, bias, output,
                                             M, N, eps, stream);
}
