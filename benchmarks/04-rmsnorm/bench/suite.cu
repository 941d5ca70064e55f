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
