// The registry of kernels `make bench-05` measures. As in lesson 04's benchmark, bench.sh compiles the exercises'
// entry points twice, from solutions/05-layernorm/ and from exercises/05-layernorm/, renamed with a `solution_` or
// `student_` prefix; they are declared weak here, so a file that did not compile leaves its kernels out.
#include "suite.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "../../common/copies.h"
#include "../kernels/reference.h"

using bf16 = __nv_bfloat16;

#define BENCH_EDITION(P)                                                                                               \
    __attribute__((weak)) void P##launch_layernorm(const float*, const float*, const float*, float*, int, int, float,  \
                                                   cudaStream_t);                                                      \
    __attribute__((weak)) void P##launch_layernorm_welford(const float*, const float*, const float*, float*, float*,   \
                                                           float*, int, int, float, cudaStream_t);                     \
    __attribute__((weak)) void P##launch_layernorm_bughunt(const float*, const float*, const float*, float*, int, int, \
                                                           float, cudaStream_t);                                       \
    __attribute__((weak)) void P##launch_layernorm_bf16(const bf16*, const bf16*, const bf16*, bf16*, int, int, float, \
                                                        cudaStream_t);                                                 \
    __attribute__((weak)) void P##launch_layernorm_fp16(const __half*, const __half*, const __half*, __half*, int,     \
                                                        int, float, cudaStream_t);                                     \
    __attribute__((weak)) void P##launch_layernorm_fast(const bf16*, const bf16*, const bf16*, bf16*, int, int, float, \
                                                        cudaStream_t);                                                 \
    __attribute__((weak)) void P##launch_fused_add_layernorm(const bf16*, bf16*, const bf16*, const bf16*, bf16*, int, \
                                                             int, float, cudaStream_t);
BENCH_EDITION(solution_)
BENCH_EDITION(student_)
#undef BENCH_EDITION

namespace bench {

const char* op_name(Op op) { return op == Op::layernorm ? "layernorm" : "fused_add_layernorm"; }

namespace {

template <typename T>
const T* in(const void* p) {
    return static_cast<const T*>(p);
}
template <typename T>
T* out(void* p) {
    return static_cast<T*>(p);
}

// The plain-norm entry points of one edition that share the (input, weight, bias, output, M, N, eps) signature.
#define BENCH_NORM(P, SOURCE, NAME, ENTRY, T)                                             \
    if (P##ENTRY)                                                                         \
        add(NAME, SOURCE, [](const Args& a, cudaStream_t s) {                             \
            P##ENTRY(in<T>(a.x), in<T>(a.w), in<T>(a.b), out<T>(a.y), a.M, a.N, kEps, s); \
            return true;                                                                  \
        });

#define BENCH_ADD_EDITION(P, SOURCE)                                                                             \
    if (op == Op::layernorm && dtype == Dtype::fp32) {                                                           \
        BENCH_NORM(P, SOURCE, "layernorm", launch_layernorm, float)                                              \
        BENCH_NORM(P, SOURCE, "bug_hunt", launch_layernorm_bughunt, float)                                       \
        if (P##launch_layernorm_welford)                                                                         \
            add(                                                                                                 \
                "welford", SOURCE,                                                                               \
                [](const Args& a, cudaStream_t s) {                                                              \
                    P##launch_layernorm_welford(in<float>(a.x), in<float>(a.w), in<float>(a.b), out<float>(a.y), \
                                                a.mean, a.rstd, a.M, a.N, kEps, s);                              \
                    return true;                                                                                 \
                },                                                                                               \
                true);                                                                                           \
    }                                                                                                            \
    if (op == Op::layernorm && dtype == Dtype::bf16) {                                                           \
        BENCH_NORM(P, SOURCE, "layernorm_half", launch_layernorm_bf16, bf16)                                     \
        BENCH_NORM(P, SOURCE, "layernorm_fast", launch_layernorm_fast, bf16)                                     \
    }                                                                                                            \
    if (op == Op::layernorm && dtype == Dtype::fp16) {                                                           \
        BENCH_NORM(P, SOURCE, "layernorm_half", launch_layernorm_fp16, __half)                                   \
    }                                                                                                            \
    if (op == Op::fused_add && dtype == Dtype::bf16 && P##launch_fused_add_layernorm)                            \
        add("fused_add_layernorm", SOURCE, [](const Args& a, cudaStream_t s) {                                   \
            P##launch_fused_add_layernorm(in<bf16>(a.x), out<bf16>(a.residual), in<bf16>(a.w), in<bf16>(a.b),    \
                                          out<bf16>(a.y), a.M, a.N, kEps, s);                                    \
            return true;                                                                                         \
        });

template <typename T>
Launch shaped(const rmsref::LaunchShape& s, bool fused) {
    return [=](const Args& a, cudaStream_t st) {
        T* residual = fused ? out<T>(a.residual) : nullptr;
        if constexpr (sizeof(T) == 4)
            return ref_layernorm_shape_fp32(s, in<T>(a.x), residual, in<T>(a.w), in<T>(a.b), out<T>(a.y), a.M, a.N,
                                            kEps, st);
        else if constexpr (std::is_same<T, bf16>::value)
            return ref_layernorm_shape_bf16(s, in<T>(a.x), residual, in<T>(a.w), in<T>(a.b), out<T>(a.y), a.M, a.N,
                                            kEps, st);
        else
            return ref_layernorm_shape_fp16(s, in<T>(a.x), residual, in<T>(a.w), in<T>(a.b), out<T>(a.y), a.M, a.N,
                                            kEps, st);
    };
}

Launch shaped_launch(Dtype dtype, const rmsref::LaunchShape& s, bool fused) {
    switch (dtype) {
        case Dtype::fp32: return shaped<float>(s, fused);
        case Dtype::bf16: return shaped<bf16>(s, fused);
        case Dtype::fp16: return shaped<__half>(s, fused);
    }
    return {};
}

Launch rule_launch(Op op, Dtype dtype) {
    if (op == Op::fused_add) {
        if (dtype != Dtype::bf16) return {};  // the lesson has a fused add in bf16 only
        return [](const Args& a, cudaStream_t s) {
            ref_fused_add_layernorm_bf16(in<bf16>(a.x), out<bf16>(a.residual), in<bf16>(a.w), in<bf16>(a.b),
                                         out<bf16>(a.y), a.M, a.N, kEps, s);
            return true;
        };
    }
    switch (dtype) {
        case Dtype::fp32:
            return [](const Args& a, cudaStream_t s) {
                ref_layernorm_fp32(in<float>(a.x), in<float>(a.w), in<float>(a.b), out<float>(a.y), a.M, a.N, kEps, s);
                return true;
            };
        case Dtype::bf16:
            return [](const Args& a, cudaStream_t s) {
                ref_layernorm_bf16(in<bf16>(a.x), in<bf16>(a.w), in<bf16>(a.b), out<bf16>(a.y), a.M, a.N, kEps, s);
                return true;
            };
        case Dtype::fp16:
            return [](const Args& a, cudaStream_t s) {
                ref_layernorm_fp16(in<__half>(a.x), in<__half>(a.w), in<__half>(a.b), out<__half>(a.y), a.M, a.N, kEps,
                                   s);
                return true;
            };
    }
    return {};
}

}  // namespace

std::vector<Kernel> kernels_for(Op op, Dtype dtype, int M, int N, bool tune) {
    std::vector<Kernel> ks;
    auto add = [&](const char* name, const char* source, Launch l, bool stats = false) {
        ks.push_back({name, source, "", op, dtype, std::move(l), stats});
    };
    BENCH_ADD_EDITION(student_, "student")
    BENCH_ADD_EDITION(solution_, "solution")
    const bool fused = op == Op::fused_add;
    // The reference through its entry points (their own rule picks the shape).
    const rmsref::LaunchShape rule = lnref::choose_shape(N, dtype_bytes(dtype), M, fused);
    if (Launch l = rule_launch(op, dtype))
        ks.push_back({"reference", "reference", rmsref::shape_name(rule), op, dtype, std::move(l)});
    // The tuning sweep: every shape, the whole-block ones of at most 4 packs also capped and streaming (the LayerNorm
    // kernels have those two options of lesson 04's; their loads always come first, no row in shared memory).
    if (tune)
        for (const rmsref::LaunchShape& s : rmsref::candidate_shapes(N, dtype_bytes(dtype), true))
            ks.push_back({"ref:" + rmsref::shape_name(s), "tune", rmsref::shape_name(s), op, dtype,
                          shaped_launch(dtype, s, fused)});
    // The roofline at this shape: a copy of the input's bytes (plain norm only, as in lesson 04's benchmark).
    if (op == Op::layernorm)
        ks.push_back({"copy", "copy", "", op, dtype, [dtype](const Args& a, cudaStream_t s) {
                          copy_kernel(a.y, a.x, size_t(a.M) * a.N * dtype_bytes(dtype), s);
                          return true;
                      }});
    return ks;
}

}  // namespace bench
