// The registry of kernels the benchmark measures. The exercises' entry points are compiled twice by bench.sh, once
// from solutions/04-rmsnorm/ and once from exercises/04-rmsnorm/, renamed with a `solution_` or `student_` prefix
// (-Dlaunch_rmsnorm=solution_launch_rmsnorm ...). They are declared weak here: a file that did not compile leaves its
// symbols null, and its kernels are simply absent (bench.sh names the file as not built).
#include "suite.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "../../common/copies.h"
#include "../kernels/reference.h"
#include "check.h"

#define BENCH_EDITION(P)                                                                                               \
    __attribute__((weak)) void P##launch_rmsnorm(const float*, const float*, float*, int, int, float, cudaStream_t);   \
    __attribute__((weak)) void P##launch_rmsnorm_fast(const float*, const float*, float*, int, int, float,             \
                                                      cudaStream_t);                                                   \
    __attribute__((weak)) void P##launch_rmsnorm_bf16(const __nv_bfloat16*, const __nv_bfloat16*, __nv_bfloat16*, int, \
                                                      int, float, cudaStream_t);                                       \
    __attribute__((weak)) void P##launch_rmsnorm_fp16(const __half*, const __half*, __half*, int, int, float,          \
                                                      cudaStream_t);                                                   \
    __attribute__((weak)) void P##launch_rmsnorm_vec(const __nv_bfloat16*, long long, const __nv_bfloat16*,            \
                                                     __nv_bfloat16*, long long, int, int, float, cudaStream_t);        \
    __attribute__((weak)) void P##launch_rmsnorm_bf16_fast(const __nv_bfloat16*, const __nv_bfloat16*, __nv_bfloat16*, \
                                                           int, int, float, cudaStream_t);                             \
    __attribute__((weak)) void P##launch_fused_add_rmsnorm(const __nv_bfloat16*, __nv_bfloat16*, const __nv_bfloat16*, \
                                                           __nv_bfloat16*, int, int, float, cudaStream_t);
BENCH_EDITION(solution_)
BENCH_EDITION(student_)
#undef BENCH_EDITION

namespace bench {

const char* op_name(Op op) { return op == Op::rmsnorm ? "rmsnorm" : "fused_add_rmsnorm"; }

namespace {

template <typename T>
const T* in(const void* p) {
    return static_cast<const T*>(p);
}
template <typename T>
T* out(void* p) {
    return static_cast<T*>(p);
}

using bf16 = __nv_bfloat16;

// The exercises' kernels of one edition ("solution" or "student") that apply to (op, dtype).
#define BENCH_ADD_EDITION(P, SOURCE)                                                                                   \
    if (op == Op::rmsnorm && dtype == Dtype::fp32) {                                                                   \
        if (P##launch_rmsnorm)                                                                                         \
            add("rmsnorm", SOURCE, [](const Args& a, cudaStream_t s) {                                                 \
                P##launch_rmsnorm(in<float>(a.x), in<float>(a.w), out<float>(a.y), a.M, a.N, kEps, s);                 \
                return true;                                                                                           \
            });                                                                                                        \
        if (P##launch_rmsnorm_fast)                                                                                    \
            add("rmsnorm_fast", SOURCE, [](const Args& a, cudaStream_t s) {                                            \
                P##launch_rmsnorm_fast(in<float>(a.x), in<float>(a.w), out<float>(a.y), a.M, a.N, kEps, s);            \
                return true;                                                                                           \
            });                                                                                                        \
    }                                                                                                                  \
    if (op == Op::rmsnorm && dtype == Dtype::bf16) {                                                                   \
        if (P##launch_rmsnorm_bf16)                                                                                    \
            add("rmsnorm_half", SOURCE, [](const Args& a, cudaStream_t s) {                                            \
                P##launch_rmsnorm_bf16(in<bf16>(a.x), in<bf16>(a.w), out<bf16>(a.y), a.M, a.N, kEps, s);               \
                return true;                                                                                           \
            });                                                                                                        \
        if (P##launch_rmsnorm_vec)                                                                                     \
            add("rmsnorm_vec", SOURCE, [](const Args& a, cudaStream_t s) {                                             \
                P##launch_rmsnorm_vec(in<bf16>(a.x), a.N, in<bf16>(a.w), out<bf16>(a.y), a.N, a.M, a.N, kEps, s);      \
                return true;                                                                                           \
            });                                                                                                        \
        if (P##launch_rmsnorm_bf16_fast)                                                                               \
            add("rmsnorm_bf16_fast", SOURCE, [](const Args& a, cudaStream_t s) {                                       \
                P##launch_rmsnorm_bf16_fast(in<bf16>(a.x), in<bf16>(a.w), out<bf16>(a.y), a.M, a.N, kEps, s);          \
                return true;                                                                                           \
            });                                                                                                        \
    }                                                                                                                  \
    if (op == Op::rmsnorm && dtype == Dtype::fp16 && P##launch_rmsnorm_fp16)                                           \
        add("rmsnorm_half", SOURCE, [](const Args& a, cudaStream_t s) {                                                \
            P##launch_rmsnorm_fp16(in<__half>(a.x), in<__half>(a.w), out<__half>(a.y), a.M, a.N, kEps, s);             \
            return true;                                                                                               \
        });                                                                                                            \
    if (op == Op::fused_add && dtype == Dtype::bf16 && P##launch_fused_add_rmsnorm)                                    \
        add("fused_add_rmsnorm", SOURCE, [](const Args& a, cudaStream_t s) {                                           \
            P##launch_fused_add_rmsnorm(in<bf16>(a.x), out<bf16>(a.residual), in<bf16>(a.w), out<bf16>(a.y), a.M, a.N, \
                                        kEps, s);                                                                      \
            return true;                                                                                               \
        });

// The reference kernel of (op, dtype) with the given shape, or with its own rule when `shape` is null.
Launch reference_launch(Op op, Dtype dtype, const rmsref::LaunchShape* shape) {
    const bool chosen = shape == nullptr;
    const rmsref::LaunchShape s = chosen ? rmsref::LaunchShape{} : *shape;
    if (op == Op::rmsnorm) {
        switch (dtype) {
            case Dtype::fp32:
                return [=](const Args& a, cudaStream_t st) {
                    if (chosen) {
                        ref_rmsnorm_fp32(in<float>(a.x), a.N, in<float>(a.w), out<float>(a.y), a.N, a.M, a.N, kEps, st);
                        return true;
                    }
                    return ref_rmsnorm_fp32_shape(s, in<float>(a.x), a.N, in<float>(a.w), out<float>(a.y), a.N, a.M,
                                                  a.N, kEps, st);
                };
            case Dtype::bf16:
                return [=](const Args& a, cudaStream_t st) {
                    if (chosen) {
                        ref_rmsnorm_bf16(in<bf16>(a.x), a.N, in<bf16>(a.w), out<bf16>(a.y), a.N, a.M, a.N, kEps, st);
                        return true;
                    }
                    return ref_rmsnorm_bf16_shape(s, in<bf16>(a.x), a.N, in<bf16>(a.w), out<bf16>(a.y), a.N, a.M, a.N,
                                                  kEps, st);
                };
            case Dtype::fp16:
                return [=](const Args& a, cudaStream_t st) {
                    if (chosen) {
                        ref_rmsnorm_fp16(in<__half>(a.x), a.N, in<__half>(a.w), out<__half>(a.y), a.N, a.M, a.N, kEps,
                                         st);
                        return true;
                    }
                    return ref_rmsnorm_fp16_shape(s, in<__half>(a.x), a.N, in<__half>(a.w), out<__half>(a.y), a.N, a.M,
                                                  a.N, kEps, st);
                };
        }
    }
    if (dtype == Dtype::fp32) {
        return [=](const Args& a, cudaStream_t st) {
            if (chosen) {
                ref_fused_add_rmsnorm_fp32(in<float>(a.x), out<float>(a.residual), in<float>(a.w), out<float>(a.y), a.M,
                                           a.N, kEps, st);
                return true;
            }
            return ref_fused_add_rmsnorm_fp32_shape(s, in<float>(a.x), out<float>(a.residual), in<float>(a.w),
                                                    out<float>(a.y), a.M, a.N, kEps, st);
        };
    }
    if (dtype == Dtype::bf16) {
        return [=](const Args& a, cudaStream_t st) {
            if (chosen) {
                ref_fused_add_rmsnorm_bf16(in<bf16>(a.x), out<bf16>(a.residual), in<bf16>(a.w), out<bf16>(a.y), a.M,
                                           a.N, kEps, st);
                return true;
            }
            return ref_fused_add_rmsnorm_bf16_shape(s, in<bf16>(a.x), out<bf16>(a.residual), in<bf16>(a.w),
                                                    out<bf16>(a.y), a.M, a.N, kEps, st);
        };
    }
    return nullptr;  // no fp16 fused add
}

// The reference's rule shape under programmatic dependent launch (the "+pdl" launch mode). Its check launch, on the
// legacy default stream after a synchronisation, has no grid to overlap and is launched plainly (the same instance:
// the griddepcontrol pair is in every kernel); the timed launches, captured on a stream of their own, carry the
// attribute.
Launch reference_pdl_launch(Op op, Dtype dtype, rmsref::LaunchShape shape) {
    return [=](const Args& a, cudaStream_t st) {
        rmsref::LaunchShape s = shape;
        s.pdl = st != nullptr;
        return reference_launch(op, dtype, &s)(a, st);
    };
}

// The copies of the same bytes at a large shape (copies.h, row_copy_rows): rows of 2 KiB (the roofline's structure)
// and, where it differs, of the kernel's own row, 1, 2 or 4 words a thread, each launched plainly, plainly with the
// kernel's griddepcontrol pair (what the pair costs), and under programmatic dependent launch (its check launch
// plainly, as reference_pdl_launch's). The norm copies x to y; the fused add also rewrites its residual in place.
void add_copy_designs(std::vector<Kernel>& list, Op op, Dtype dtype, int N) {
    const size_t row = size_t(N) * dtype_bytes(dtype);
    std::vector<size_t> rows_of = {2048};
    if (row != 2048) rows_of.push_back(row);
    for (size_t row_bytes : rows_of) {
        for (int words : {1, 2, 4}) {
            const size_t threads = ((row_bytes / 16 + words - 1) / words + 31) / 32 * 32;
            if (threads > 1024 || row_bytes % 16) continue;
            for (CopyLaunch how : {CopyLaunch::plain, CopyLaunch::wait, CopyLaunch::pdl}) {
                const std::string shape = (row_bytes == 2048 ? std::string("2KiB-rows") : "rows") + "/block" +
                                          std::to_string(threads) + "x" + std::to_string(words) +
                                          (how == CopyLaunch::wait  ? "+wait"
                                           : how == CopyLaunch::pdl ? "+pdl"
                                                                    : "");
                list.push_back({"row copy", "copy design", shape, op, dtype, [=](const Args& a, cudaStream_t st) {
                                    CopyTensors t;
                                    t.dst[0] = a.y;
                                    t.src[0] = a.x;
                                    if (op == Op::fused_add) {
                                        t.count = 2;
                                        t.dst[1] = a.residual;
                                        t.src[1] = a.residual;
                                    }
                                    const CopyLaunch mode = how == CopyLaunch::pdl && !st ? CopyLaunch::wait : how;
                                    return row_copy_rows(t, size_t(a.M) * a.N * dtype_bytes(dtype), row_bytes, words,
                                                         mode, st);
                                }});
            }
        }
    }
}

}  // namespace

std::vector<Kernel> kernels_for(Op op, Dtype dtype, int M, int N, bool tune) {
    std::vector<Kernel> list;
    auto add = [&](const char* name, const char* source, Launch launch) {
        list.push_back({name, source, "", op, dtype, std::move(launch)});
    };
    BENCH_ADD_EDITION(student_, "student")
    BENCH_ADD_EDITION(solution_, "solution")
    if (Launch ref = reference_launch(op, dtype, nullptr)) {
        list.push_back({"reference", "reference",
                        rmsref::shape_name(rmsref::choose_shape(N, dtype_bytes(dtype), M, op == Op::fused_add)), op,
                        dtype, ref});
        if (tune) {
            for (const rmsref::LaunchShape& s :
                 rmsref::candidate_shapes(N, dtype_bytes(dtype), true, true, op == Op::fused_add)) {
                list.push_back({"ref:" + rmsref::shape_name(s), "tune", rmsref::shape_name(s), op, dtype,
                                reference_launch(op, dtype, &s)});
            }
        }
    }
    // Long batches (the large shapes): the rule's shape under programmatic dependent launch beside the plain launch,
    // and the copy designs of the same bytes, plain and under the same launch mode.
    if (M > rmsref::kShortBatchRows && reference_launch(op, dtype, nullptr)) {
        rmsref::LaunchShape s = rmsref::choose_shape(N, dtype_bytes(dtype), M, op == Op::fused_add);
        s.pdl = true;
        list.push_back({"reference+pdl", "pdl", rmsref::shape_name(s), op, dtype, reference_pdl_launch(op, dtype, s)});
        add_copy_designs(list, op, dtype, N);
    }
    if (op == Op::rmsnorm) {
        // The practical ceiling at this very shape: x copied to y, the same bytes read and written as the norm.
        list.push_back({"copy", "copy", "", op, dtype, [dtype](const Args& a, cudaStream_t st) {
                            copy_kernel(a.y, a.x, size_t(a.M) * a.N * dtype_bytes(dtype), st);
                            return true;
                        }});
    }
    return list;
}
#undef BENCH_ADD_EDITION

}  // namespace bench
