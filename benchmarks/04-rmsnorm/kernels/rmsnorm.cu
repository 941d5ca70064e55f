// Reference RMSNorm of lesson 04 at the memory roofline: fp32, bf16 and fp16 from one template.
//
// What makes it fast, each step measured in docs/performance.md:
//   1. the row stays in registers: x is read from memory once (the two-pass kernels read it twice, and the second
//      read misses L2 once rows are long and many are in flight);
//   2. 16-byte packs: one load instruction moves 4 floats or 8 bf16/fp16 values, so a warp has 512 bytes in flight
//      per instruction instead of 64 (bf16 scalar) or 128 (fp32 scalar);
//   3. the launch shape follows the hidden size (launch_shape.h, rule_table.h): short rows share a warp, long rows
//      get a block sized so that every lane holds data, and a batch of 512 rows runs in one wave (4 blocks on each
//      multiprocessor: 2 packs a thread, or the 32-register kernel, where fewer packs would not fit);
//   4. the weight is loaded before the reduction (its latency hides behind the shuffles and the barrier) or after
//      it (fewer registers held across it, more threads per multiprocessor), whichever the rule's table says;
//   5. nothing between the row's last load and its first store that can be done earlier: 1/N comes from the host,
//      and the ALIGNED instances (whole-pack rows) have no single-element code at all.
//
// Misaligned rows (a slice, an odd hidden size, a row stride that is not a multiple of 16 bytes) are walked as in the
// `rmsnorm_vec` exercise: single elements up to the first 16-byte boundary, whole packs, single elements after the
// last whole pack. Weight and output are moved as packs only when they share the input row's offset from a 16-byte
// boundary; otherwise element by element (correct for every combination of pointers, slower).
//
// Contract (as the lesson's exercises): fp32 accumulation, inv_rms = 1 / sqrt(sum(x^2) * (1/N) + eps), 1/N rounded
// to fp32 once on the host (within an ulp of sum / N);
//   fp32:          y = x * inv_rms * w
//   bf16 / fp16:   y = T( float( T(x * inv_rms) ) * w )
// Row r of the input is input[r * in_stride + j], of the output output[r * out_stride + j]. In-place use (output ==
// input, same stride) is allowed: every element is read before the row's reduction and written after it.
#include "common.cuh"
#include "launch_shape.h"
#include "reference.h"

namespace rmsref {
namespace {

// One row per LANES lanes (LANES = 0: per block), PACKS packs per lane held in registers; WEIGHT_EARLY: the weight
// is loaded before the reduction; ALIGNED: every row of input, weight and output starts on a 16-byte boundary; STREAM:
// the kOptStream hint of launch_shape.h (instantiated, with the capped kernel below, for ALIGNED whole-block rows of
// at most 4 packs only); FIRST: the kOptLoadsFirst option (likewise), every pack's load issued before the first use of
// one. `warp_partials` is the kernel's shared array for the block's reduction.
template <typename T, int LANES, int PACKS, bool WEIGHT_EARLY, bool ALIGNED, bool STREAM, bool FIRST>
__device__ __forceinline__ void rmsnorm_row(const T* input, long long in_stride, const T* __restrict__ weight,
                                            T* output, long long out_stride, int M, int N, float eps, float inv_n,
                                            float* warp_partials) {
    constexpr int kN = Pack<T>::kN;
    // The prefix and the tail together hold fewer than 2 * kN single elements, spread over the row's lanes.
    constexpr int kSingles = (2 * (kN - 1) + (LANES > 0 ? LANES : 32) - 1) / (LANES > 0 ? LANES : 32);
    const int lanes = LANES > 0 ? LANES : static_cast<int>(blockDim.x);
    const int lane = LANES > 0 ? static_cast<int>(threadIdx.x) % LANES : static_cast<int>(threadIdx.x);
    const long long row = LANES > 0 ? static_cast<long long>(blockIdx.x) * (blockDim.x / LANES) + threadIdx.x / LANES
                                    : static_cast<long long>(blockIdx.x);
    // A group past the last row still joins its warp's shuffles; it loads and stores nothing.
    const bool live = row < M;
    const T* x = input + (live ? row : 0) * in_stride;
    T* y = output + (live ? row : 0) * out_stride;
    const RowSplit split = split_row<ALIGNED>(x, live ? N : 0);

    // Load the row: this lane's packs (pack p = lane + i * lanes, so a warp reads consecutive 16-byte chunks) and
    // its share of the single elements. Squares accumulate in fp32. With FIRST every pack's load is issued before
    // the first square uses one; without, each pack's squares sit in its load's branch, and whether the next load
    // waits for this one's data is left to ptxas (fewer registers: both are tuned).
    Pack<T> xs[PACKS];
    float sq = 0.0f;
    auto add_squares = [&](const Pack<T>& v) {
#pragma unroll
        for (int k = 0; k < kN; ++k) {
            const float f = to_float(v.v[k]);
            sq += f * f;
        }
    };
#pragma unroll
    for (int i = 0; i < PACKS; ++i) {
        const int p = lane + i * lanes;
        if (p < split.packs) {
            xs[i] = load_pack_hinted<STREAM>(x + split.prefix + p * kN);
            if constexpr (!FIRST) add_squares(xs[i]);
        }
    }
    if constexpr (FIRST) {
#pragma unroll
        for (int i = 0; i < PACKS; ++i)
            if (lane + i * lanes < split.packs) add_squares(xs[i]);
    }
    T singles[kSingles];
#pragma unroll
    for (int j = 0; j < kSingles; ++j) {
        const int e = lane + j * lanes;
        if (e < split.singles) {
            singles[j] = x[split.single_column(e)];
            const float f = to_float(singles[j]);
            sq += f * f;
        }
    }

    // Early, the weight's loads are in flight during the reduction; late (below), they are not held across it, which
    // saves the registers that decide how many threads, and so how many bytes, a multiprocessor has in flight.
    const bool weight_packs = ALIGNED || misalignment(weight) == misalignment(x);
    Pack<T> ws[PACKS];
    if constexpr (WEIGHT_EARLY) {
#pragma unroll
        for (int i = 0; i < PACKS; ++i) {
            const int p = lane + i * lanes;
            if (p < split.packs) ws[i] = load_pack_or_elements_ro(weight + split.prefix + p * kN, weight_packs);
        }
    }

    float total;
    if constexpr (LANES > 0) {
        total = group_sum<LANES>(sq);
    } else {
        total = block_sum(sq, warp_partials);
    }
    const float inv_rms = rsqrtf(total * inv_n + eps);

    // Write the row from registers. With FIRST a late weight's loads are all issued before the first store (after a
    // store, the next pack's weight load cannot be moved above it by the compiler unless it knows they do not alias).
    const bool output_packs = ALIGNED || misalignment(y) == misalignment(x);
    if constexpr (!WEIGHT_EARLY && FIRST) {
#pragma unroll
        for (int i = 0; i < PACKS; ++i) {
            const int p = lane + i * lanes;
            if (p < split.packs) ws[i] = load_pack_or_elements_ro(weight + split.prefix + p * kN, weight_packs);
        }
    }
#pragma unroll
    for (int i = 0; i < PACKS; ++i) {
        const int p = lane + i * lanes;
        if (p < split.packs) {
            forget_widened(xs[i]);
            if constexpr (!WEIGHT_EARLY && !FIRST)
                ws[i] = load_pack_or_elements_ro(weight + split.prefix + p * kN, weight_packs);
            const Pack<T> out = normalize_pack(xs[i], inv_rms, ws[i]);
            if constexpr (ALIGNED) store_pack_hinted<STREAM>(y + split.prefix + p * kN, out);
            else store_pack_or_elements(y + split.prefix + p * kN, out, output_packs);
        }
    }
#pragma unroll
    for (int j = 0; j < kSingles; ++j) {
        const int e = lane + j * lanes;
        if (e < split.singles) {
            const int col = split.single_column(e);
            y[col] = normalize<T>(to_float(singles[j]), inv_rms, to_float(__ldg(weight + col)));
        }
    }
}

// The kernels: the same row, compiled with the register budget of max_threads (a block of that many threads must
// fit), or capped at 32 registers (kOptCap: __launch_bounds__' minimum of 2048 / max_threads blocks per
// multiprocessor). Two kernels rather than a computed minimum because ptxas treats an explicit minimum of 1 block
// differently from none: it gave 30 -> 38 registers for the bf16 block x2 instance (measured with --resource-usage).
template <typename T, int LANES, int PACKS, bool WEIGHT_EARLY, bool ALIGNED, bool STREAM, bool FIRST>
__global__ void __launch_bounds__(max_threads(LANES, PACKS))
    rmsnorm_regs_kernel(const T* input, long long in_stride, const T* __restrict__ weight, T* output,
                        long long out_stride, int M, int N, float eps, float inv_n) {
    start_after_previous_grid();
    __shared__ float warp_partials[32];
    rmsnorm_row<T, LANES, PACKS, WEIGHT_EARLY, ALIGNED, STREAM, FIRST>(input, in_stride, weight, output, out_stride, M,
                                                                       N, eps, inv_n, warp_partials);
}
template <typename T, int LANES, int PACKS, bool WEIGHT_EARLY, bool ALIGNED, bool STREAM, bool FIRST>
__global__ void __launch_bounds__(max_threads(LANES, PACKS), 2048 / max_threads(LANES, PACKS))
    rmsnorm_capped_kernel(const T* input, long long in_stride, const T* __restrict__ weight, T* output,
                          long long out_stride, int M, int N, float eps, float inv_n) {
    start_after_previous_grid();
    __shared__ float warp_partials[32];
    rmsnorm_row<T, LANES, PACKS, WEIGHT_EARLY, ALIGNED, STREAM, FIRST>(input, in_stride, weight, output, out_stride, M,
                                                                       N, eps, inv_n, warp_partials);
}

// Rows longer than 512 threads x 8 packs: two passes, the second rereads x (from L2 if it is still there).
template <typename T>
__global__ void __launch_bounds__(kMaxThreads)
    rmsnorm_two_pass_kernel(const T* input, long long in_stride, const T* __restrict__ weight, T* output,
                            long long out_stride, int N, float eps) {
    start_after_previous_grid();
    constexpr int kN = Pack<T>::kN;
    const T* x = input + static_cast<long long>(blockIdx.x) * in_stride;
    T* y = output + static_cast<long long>(blockIdx.x) * out_stride;
    const RowSplit split = split_row(x, N);
    float sq = 0.0f;
    for (int p = threadIdx.x; p < split.packs; p += blockDim.x) {
        const Pack<T> v = load_pack(x + split.prefix + p * kN);
#pragma unroll
        for (int k = 0; k < kN; ++k) sq += to_float(v.v[k]) * to_float(v.v[k]);
    }
    for (int e = threadIdx.x; e < split.singles; e += blockDim.x) {
        const float f = to_float(x[split.single_column(e)]);
        sq += f * f;
    }
    __shared__ float warp_partials[32];
    const float inv_rms = rsqrtf(block_sum(sq, warp_partials) / static_cast<float>(N) + eps);
    const bool weight_packs = misalignment(weight) == misalignment(x);
    const bool output_packs = misalignment(y) == misalignment(x);
    for (int p = threadIdx.x; p < split.packs; p += blockDim.x) {
        const int col = split.prefix + p * kN;
        const Pack<T> v = load_pack(x + col);
        const Pack<T> w = load_pack_or_elements_ro(weight + col, weight_packs);
        store_pack_or_elements(y + col, normalize_pack(v, inv_rms, w), output_packs);
    }
    for (int e = threadIdx.x; e < split.singles; e += blockDim.x) {
        const int col = split.single_column(e);
        y[col] = normalize<T>(to_float(x[col]), inv_rms, to_float(__ldg(weight + col)));
    }
}

template <typename T>
bool launch_shape(const LaunchShape& s, const T* input, long long in_stride, const T* weight, T* output,
                  long long out_stride, int M, int N, float eps, cudaStream_t stream) {
    if (M <= 0 || N <= 0) return true;
    // The norm has no instance that keeps the row in shared memory (only the fused add's new residual is kept so).
    if (s.opt & kOptSharedH) return false;
    if (s.pdl && !kPdlBuilt) return false;  // built without the griddepcontrol pair (common.cuh)
    if (s.lanes < 0) {
        launch_kernel(s.pdl, rmsnorm_two_pass_kernel<T>, M, s.threads, 0, stream, input, in_stride, weight, output,
                      out_stride, N, eps);
        return true;
    }
    // The registers must hold the whole row; a shape that does not fit is refused, never run short.
    const int lanes = s.lanes > 0 ? s.lanes : s.threads;
    if (s.threads % 32 != 0 || s.threads > max_threads(s.lanes, s.packs) ||
        lanes * s.packs < packs_per_row(N, sizeof(T)))
        return false;
    const int rows_per_block = s.lanes > 0 ? s.threads / s.lanes : 1;
    // The mean square as sum * (1/N), the reciprocal rounded once here, within an ulp of sum / N: the kernel's
    // division (a reciprocal, two refinements and a check with its slow path) sat between the reduction and the
    // first store of every row.
    const float inv_n = 1.0f / static_cast<float>(N);
    const int grid = ceil_div(M, rows_per_block);
    const bool aligned = rows_aligned(input, in_stride * sizeof(T)) && rows_aligned(output, out_stride * sizeof(T)) &&
                         rows_aligned(weight, 0) && N % Pack<T>::kN == 0;
    // The options are hints for the ALIGNED whole-block instances; a misaligned row runs the plain instance.
    const int opt = aligned ? s.opt : 0;
#define RMSREF_LAUNCH(L, P, EARLY, ALIGNED, OPT)                                                                      \
    do {                                                                                                              \
        if constexpr (((OPT)&kOptCap) != 0)                                                                           \
            launch_kernel(                                                                                            \
                s.pdl,                                                                                                \
                rmsnorm_capped_kernel<T, L, P, EARLY, ALIGNED, ((OPT)&kOptStream) != 0, ((OPT)&kOptLoadsFirst) != 0>, \
                grid, s.threads, 0, stream, input, in_stride, weight, output, out_stride, M, N, eps, inv_n);          \
        else                                                                                                          \
            launch_kernel(                                                                                            \
                s.pdl,                                                                                                \
                rmsnorm_regs_kernel<T, L, P, EARLY, ALIGNED, ((OPT)&kOptStream) != 0, ((OPT)&kOptLoadsFirst) != 0>,   \
                grid, s.threads, 0, stream, input, in_stride, weight, output, out_stride, M, N, eps, inv_n);          \
    } while (0)
    RMSREF_DISPATCH_SHAPES()
#undef RMSREF_LAUNCH
    return false;
}

}  // namespace
}  // namespace rmsref

#define RMSREF_ENTRY(SUFFIX, T)                                                                                      \
    void ref_rmsnorm_##SUFFIX(const T* input, long long in_stride, const T* weight, T* output, long long out_stride, \
                              int M, int N, float eps, cudaStream_t stream) {                                        \
        rmsref::launch_shape(rmsref::choose_shape(N, sizeof(T), M, false), input, in_stride, weight, output,         \
                             out_stride, M, N, eps, stream);                                                         \
    }                                                                                                                \
    bool ref_rmsnorm_##SUFFIX##_shape(const rmsref::LaunchShape& shape, const T* input, long long in_stride,         \
                                      const T* weight, T* output, long long out_stride, int M, int N, float eps,     \
                                      cudaStream_t stream) {                                                         \
        return rmsref::launch_shape(shape, input, in_stride, weight, output, out_stride, M, N, eps, stream);         \
    }
RMSREF_ENTRY(fp32, float)
RMSREF_ENTRY(bf16, __nv_bfloat16)
RMSREF_ENTRY(fp16, __half)
#undef RMSREF_ENTRY
