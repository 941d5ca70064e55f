// Reference fused residual add + RMSNorm of lesson 04 at the memory roofline, bf16 and fp32.
//
//   h = x + residual  (bf16: rounded to bf16)  ->  written back into residual
//   y = RMSNorm(h) * w                          (same contract as rmsnorm.cu, statistics from the rounded h)
//
// Every byte moves once: x and the old residual are read once, the new residual and y are written once, and h waits
// in registers between the add and the normalisation (the lesson's `fused_add_rmsnorm` solution rereads the residual
// it has just written, element by element). The new residual is stored before the reduction, so those stores drain
// while the row's sum is formed. Launch shapes, packs and misaligned-row handling as in rmsnorm.cu: the walk follows
// the input row; residual, weight and output move as packs when they share its offset from a 16-byte boundary.
//
// Rows are contiguous (row r starts at r * N in input, residual and output), as in the exercise.
#include "common.cuh"
#include "launch_shape.h"
#include "reference.h"

namespace rmsref {
namespace {

template <typename T>
__device__ __forceinline__ T add_rounded(T a, T b) {
    return from_float<T>(to_float(a) + to_float(b));
}

// ALIGNED: every row of every operand starts on a 16-byte boundary (the launcher checks), see split_row. STREAM:
// the kOptStream hint of launch_shape.h, FIRST its kOptLoadsFirst option, SHARED its kOptSharedH (all instantiated,
// with the capped kernel below, for ALIGNED whole-block rows of at most 4 packs only). `warp_partials` is the
// kernel's shared array for the block's reduction; `h_shared` (SHARED only) PACKS * blockDim.x packs of shared memory,
// pack i of thread t at [i * blockDim.x + t], so that a warp's 16-byte accesses are consecutive (no bank conflicts).
template <typename T, int LANES, int PACKS, bool WEIGHT_EARLY, bool ALIGNED, bool STREAM, bool FIRST, bool SHARED>
__device__ __forceinline__ void fused_add_rmsnorm_row(const T* input, T* residual, const T* __restrict__ weight,
                                                      T* output, int M, int N, float eps, float inv_n,
                                                      float* warp_partials, Pack<T>* h_shared) {
    static_assert(!SHARED || LANES == 0, "the new residual goes to shared memory in whole-block rows only");
    constexpr int kN = Pack<T>::kN;
    constexpr int kSingles = (2 * (kN - 1) + (LANES > 0 ? LANES : 32) - 1) / (LANES > 0 ? LANES : 32);
    const int lanes = LANES > 0 ? LANES : static_cast<int>(blockDim.x);
    const int lane = LANES > 0 ? static_cast<int>(threadIdx.x) % LANES : static_cast<int>(threadIdx.x);
    const long long row = LANES > 0 ? static_cast<long long>(blockIdx.x) * (blockDim.x / LANES) + threadIdx.x / LANES
                                    : static_cast<long long>(blockIdx.x);
    const bool live = row < M;
    const long long offset = (live ? row : 0) * static_cast<long long>(N);
    const T* x = input + offset;
    T* r = residual + offset;
    T* y = output + offset;
    const RowSplit split = split_row<ALIGNED>(x, live ? N : 0);
    const unsigned x_mis = misalignment(x);
    const bool residual_packs = ALIGNED || misalignment(r) == x_mis;

    // Add, write the new residual, keep it in registers, accumulate its squares. Without FIRST each pack is loaded,
    // added and stored before the next pack's loads, and those loads cannot be moved above that store (input and
    // residual may alias as far as the compiler knows): a thread with several packs waits for one pack's data before
    // it asks for the next. With FIRST every pack of x and of the old residual is requested before the first add (twice
    // the registers for the packs while they are in flight: both are tuned). With SHARED the new residual waits in
    // shared memory, not in registers: the packs in flight then hold the registers alone (bf16 block x2 with FIRST:
    // 42 -> 28, two blocks of 1024 threads a multiprocessor instead of one). Each thread reads back only its own
    // slots; the reduction's barrier, a compiler barrier too, keeps the value from being forwarded in registers.
    Pack<T> hs[PACKS];
    float sq = 0.0f;
    auto add_store_square = [&](int i, const Pack<T>& a, const Pack<T>& b, int col) {
        hs[i] = add_pack(a, b);
        if constexpr (SHARED) h_shared[i * lanes + lane] = hs[i];
#pragma unroll
        for (int k = 0; k < kN; ++k) {
            const float f = to_float(hs[i].v[k]);
            sq += f * f;
        }
        if constexpr (ALIGNED) store_pack_hinted<STREAM>(r + col, hs[i]);
        else store_pack_or_elements(r + col, hs[i], residual_packs);
    };
    auto load_residual = [&](int col) {
        if constexpr (ALIGNED) return load_pack_hinted<STREAM>(r + col);
        else return load_pack_or_elements(r + col, residual_packs);
    };
    if constexpr (FIRST) {
        Pack<T> rs[PACKS];
#pragma unroll
        for (int i = 0; i < PACKS; ++i) {
            const int p = lane + i * lanes;
            if (p < split.packs) {
                hs[i] = load_pack_hinted<STREAM>(x + split.prefix + p * kN);
                rs[i] = load_residual(split.prefix + p * kN);
            }
        }
#pragma unroll
        for (int i = 0; i < PACKS; ++i) {
            const int p = lane + i * lanes;
            if (p < split.packs) add_store_square(i, hs[i], rs[i], split.prefix + p * kN);
        }
    } else {
#pragma unroll
        for (int i = 0; i < PACKS; ++i) {
            const int p = lane + i * lanes;
            if (p < split.packs) {
                const int col = split.prefix + p * kN;
                const Pack<T> a = load_pack_hinted<STREAM>(x + col);
                add_store_square(i, a, load_residual(col), col);
            }
        }
    }
    T singles[kSingles];
#pragma unroll
    for (int j = 0; j < kSingles; ++j) {
        const int e = lane + j * lanes;
        if (e < split.singles) {
            const int col = split.single_column(e);
            singles[j] = add_rounded(x[col], r[col]);
            r[col] = singles[j];
            const float f = to_float(singles[j]);
            sq += f * f;
        }
    }

    // Early, the weight's loads are in flight during the reduction; late, they are not held across it (fewer
    // registers, more threads per multiprocessor).
    const bool weight_packs = ALIGNED || misalignment(weight) == x_mis;
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

    // With FIRST a late weight's loads are all issued before the first output store, as in rmsnorm.cu (after a store,
    // the next pack's weight load cannot be moved above it unless the compiler knows they do not alias).
    const bool output_packs = ALIGNED || misalignment(y) == x_mis;
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
            if constexpr (SHARED) hs[i] = h_shared[i * lanes + lane];
            else forget_widened(hs[i]);
            if constexpr (!WEIGHT_EARLY && !FIRST)
                ws[i] = load_pack_or_elements_ro(weight + split.prefix + p * kN, weight_packs);
            const Pack<T> out = normalize_pack(hs[i], inv_rms, ws[i]);
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
// With SHARED the launch gives PACKS * blockDim.x packs of dynamic shared memory (shared_h_bytes).
template <typename T, int LANES, int PACKS, bool WEIGHT_EARLY, bool ALIGNED, bool STREAM, bool FIRST, bool SHARED>
__global__ void __launch_bounds__(max_threads(LANES, PACKS))
    fused_add_rmsnorm_regs_kernel(const T* input, T* residual, const T* __restrict__ weight, T* output, int M, int N,
                                  float eps, float inv_n) {
    start_after_previous_grid();
    __shared__ float warp_partials[32];
    extern __shared__ int4 h_shared[];
    fused_add_rmsnorm_row<T, LANES, PACKS, WEIGHT_EARLY, ALIGNED, STREAM, FIRST, SHARED>(
        input, residual, weight, output, M, N, eps, inv_n, warp_partials, reinterpret_cast<Pack<T>*>(h_shared));
}
template <typename T, int LANES, int PACKS, bool WEIGHT_EARLY, bool ALIGNED, bool STREAM, bool FIRST, bool SHARED>
__global__ void __launch_bounds__(max_threads(LANES, PACKS), 2048 / max_threads(LANES, PACKS))
    fused_add_rmsnorm_capped_kernel(const T* input, T* residual, const T* __restrict__ weight, T* output, int M, int N,
                                    float eps, float inv_n) {
    start_after_previous_grid();
    __shared__ float warp_partials[32];
    extern __shared__ int4 h_shared[];
    fused_add_rmsnorm_row<T, LANES, PACKS, WEIGHT_EARLY, ALIGNED, STREAM, FIRST, SHARED>(
        input, residual, weight, output, M, N, eps, inv_n, warp_partials, reinterpret_cast<Pack<T>*>(h_shared));
}

// Dynamic shared memory of a kOptSharedH launch: one pack per thread and pack a thread holds.
constexpr int shared_h_bytes(int threads, int packs) { return threads * packs * static_cast<int>(kPackBytes); }
// Past 48 KB (4 packs of more than 768 threads) a kernel must be allowed more dynamic shared memory than the default;
// done once per instance, for the most its shape can ask (max_threads threads), at its first launch (the benchmark's
// check, before any graph capture).
template <typename Kernel>
void allow_shared_h(Kernel* kernel, int packs, int most_threads) {
    const int most = shared_h_bytes(most_threads, packs);
    if (most > 48 * 1024) cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, most);
}

// Rows longer than the registers hold: pass 1 adds and writes the residual, pass 2 rereads it. Each thread rereads
// only what it wrote itself (same walk in both passes), so the block_sum barrier is the only one needed.
template <typename T>
__global__ void __launch_bounds__(kMaxThreads)
    fused_add_rmsnorm_two_pass_kernel(const T* input, T* residual, const T* __restrict__ weight, T* output, int N,
                                      float eps) {
    start_after_previous_grid();
    constexpr int kN = Pack<T>::kN;
    const long long offset = static_cast<long long>(blockIdx.x) * N;
    const T* x = input + offset;
    T* r = residual + offset;
    T* y = output + offset;
    const RowSplit split = split_row(x, N);
    const unsigned x_mis = misalignment(x);
    const bool residual_packs = misalignment(r) == x_mis;
    const bool weight_packs = misalignment(weight) == x_mis;
    const bool output_packs = misalignment(y) == x_mis;
    float sq = 0.0f;
    for (int p = threadIdx.x; p < split.packs; p += blockDim.x) {
        const int col = split.prefix + p * kN;
        const Pack<T> a = load_pack(x + col);
        const Pack<T> h = add_pack(a, load_pack_or_elements(r + col, residual_packs));
#pragma unroll
        for (int k = 0; k < kN; ++k) sq += to_float(h.v[k]) * to_float(h.v[k]);
        store_pack_or_elements(r + col, h, residual_packs);
    }
    for (int e = threadIdx.x; e < split.singles; e += blockDim.x) {
        const int col = split.single_column(e);
        r[col] = add_rounded(x[col], r[col]);
        sq += to_float(r[col]) * to_float(r[col]);
    }
    __shared__ float warp_partials[32];
    const float inv_rms = rsqrtf(block_sum(sq, warp_partials) / static_cast<float>(N) + eps);
    for (int p = threadIdx.x; p < split.packs; p += blockDim.x) {
        const int col = split.prefix + p * kN;
        const Pack<T> h = load_pack_or_elements(r + col, residual_packs);
        const Pack<T> w = load_pack_or_elements_ro(weight + col, weight_packs);
        store_pack_or_elements(y + col, normalize_pack(h, inv_rms, w), output_packs);
    }
    for (int e = threadIdx.x; e < split.singles; e += blockDim.x) {
        const int col = split.single_column(e);
        y[col] = normalize<T>(to_float(r[col]), inv_rms, to_float(__ldg(weight + col)));
    }
}

template <typename T>
bool launch_shape(const LaunchShape& s, const T* input, T* residual, const T* weight, T* output, int M, int N,
                  float eps, cudaStream_t stream) {
    if (M <= 0 || N <= 0) return true;
    if (s.pdl && !kPdlBuilt) return false;  // built without the griddepcontrol pair (common.cuh)
    if (s.lanes < 0) {
        launch_kernel(s.pdl, fused_add_rmsnorm_two_pass_kernel<T>, M, s.threads, 0, stream, input, residual, weight,
                      output, N, eps);
        return true;
    }
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
    const long long row_bytes = static_cast<long long>(N) * sizeof(T);
    // (row_bytes a multiple of 16: the rows hold whole packs, as split_row<true> needs.)
    const bool aligned = rows_aligned(input, row_bytes) && rows_aligned(residual, row_bytes) &&
                         rows_aligned(output, row_bytes) && rows_aligned(weight, 0);
    // The options are hints for the ALIGNED whole-block instances; a misaligned row runs the plain instance.
    const int opt = aligned ? s.opt : 0;
#define RMSREF_FUSED_KERNEL(KIND, L, P, EARLY, ALIGNED, OPT)                                                         \
    fused_add_rmsnorm_##KIND##_kernel<T, L, P, EARLY, ALIGNED, ((OPT)&kOptStream) != 0, ((OPT)&kOptLoadsFirst) != 0, \
                                      ((OPT)&kOptSharedH) != 0>
#define RMSREF_LAUNCH(L, P, EARLY, ALIGNED, OPT)                                                                       \
    do {                                                                                                               \
        const int bytes = ((OPT)&kOptSharedH) != 0 ? shared_h_bytes(s.threads, P) : 0;                                 \
        if constexpr (((OPT)&kOptCap) != 0) {                                                                          \
            if constexpr (((OPT)&kOptSharedH) != 0) {                                                                  \
                static const bool allowed =                                                                            \
                    (allow_shared_h(RMSREF_FUSED_KERNEL(capped, L, P, EARLY, ALIGNED, OPT), P, max_threads(L, P)),     \
                     true);                                                                                            \
                (void)allowed;                                                                                         \
            }                                                                                                          \
            launch_kernel(s.pdl, RMSREF_FUSED_KERNEL(capped, L, P, EARLY, ALIGNED, OPT), grid, s.threads, bytes,       \
                          stream, input, residual, weight, output, M, N, eps, inv_n);                                  \
        } else {                                                                                                       \
            if constexpr (((OPT)&kOptSharedH) != 0) {                                                                  \
                static const bool allowed =                                                                            \
                    (allow_shared_h(RMSREF_FUSED_KERNEL(regs, L, P, EARLY, ALIGNED, OPT), P, max_threads(L, P)),       \
                     true);                                                                                            \
                (void)allowed;                                                                                         \
            }                                                                                                          \
            launch_kernel(s.pdl, RMSREF_FUSED_KERNEL(regs, L, P, EARLY, ALIGNED, OPT), grid, s.threads, bytes, stream, \
                          input, residual, weight, output, M, N, eps, inv_n);                                          \
        }                                                                                                              \
    } while (0)
    RMSREF_DISPATCH_SHAPES()
#undef RMSREF_LAUNCH
#undef RMSREF_FUSED_KERNEL
    return false;
}

}  // namespace
}  // namespace rmsref

#define RMSREF_ENTRY(SUFFIX, T)                                                                                       \
    void ref_fused_add_rmsnorm_##SUFFIX(const T* input, T* residual, const T* weight, T* output, int M, int N,        \
                                        float eps, cudaStream_t stream) {                                             \
        rmsref::launch_shape(rmsref::choose_shape(N, sizeof(T), M, true), input, residual, weight, output, M, N, eps, \
                             stream);                                                                                 \
    }                                                                                                                 \
    bool ref_fused_add_rmsnorm_##SUFFIX##_shape(const rmsref::LaunchShape& shape, const T* input, T* residual,        \
                                                const T* weight, T* output, int M, int N, float eps,                  \
                                                cudaStream_t stream) {                                                \
        return rmsref::launch_shape(shape, input, residual, weight, output, M, N, eps, stream);                       \
    }
RMSREF_ENTRY(fp32, float)
RMSREF_ENTRY(bf16, __nv_bfloat16)
#undef RMSREF_ENTRY
