// One reference kernel at one shape, a few launches and nothing else: what Nsight Compute profiles (ncu
// --clock-control none -k regex:rmsnorm ./profile_one bf16 8192 16384 block512x4+w-late+cs). The benchmark itself
// launches thousands of kernels (its edge checks, the tuning sweep), which a profiler would replay one by one.
//
//   profile_one DTYPE M N [SHAPE] [LAUNCHES]
//     DTYPE fp32 | bf16 | fp16 (the norm) or fused-fp32 | fused-bf16 (the fused add, its kernels' names also match
//     regex:rmsnorm); SHAPE a name of launch_shape.h's shape_name (one of candidate_shapes(N)), `rule`
//     (the default: the rule's pick) or `copy` (the benchmark's copy of the same bytes, x to y); LAUNCHES (default 3)
//     launches, each on fresh inputs in its own buffers, so that no launch finds the previous one's rows in L2 (ncu
//     flushes the caches before each profiled launch anyway).
// Exit status: 0, or 2 on a bad argument or a shape the kernels cannot run at N.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "../../common/copies.h"
#include "../../common/cuda_check.h"
#include "../../common/device_data.h"
#include "../kernels/reference.h"

namespace {

// The fused add: residual r <- x + r, y <- RMSNorm(r) * w.
bool launch_fused(bench::Dtype dtype, const rmsref::LaunchShape* shape, const void* x, void* r, const void* w, void* y,
                  int M, int N) {
    constexpr float kEps = 1e-6f;
    if (dtype == bench::Dtype::fp32) {
        auto* in = static_cast<const float*>(x);
        auto* res = static_cast<float*>(r);
        auto* wt = static_cast<const float*>(w);
        auto* out = static_cast<float*>(y);
        if (!shape) return ref_fused_add_rmsnorm_fp32(in, res, wt, out, M, N, kEps, nullptr), true;
        return ref_fused_add_rmsnorm_fp32_shape(*shape, in, res, wt, out, M, N, kEps, nullptr);
    }
    if (dtype != bench::Dtype::bf16) return false;  // no fp16 fused add
    auto* in = static_cast<const __nv_bfloat16*>(x);
    auto* res = static_cast<__nv_bfloat16*>(r);
    auto* wt = static_cast<const __nv_bfloat16*>(w);
    auto* out = static_cast<__nv_bfloat16*>(y);
    if (!shape) return ref_fused_add_rmsnorm_bf16(in, res, wt, out, M, N, kEps, nullptr), true;
    return ref_fused_add_rmsnorm_bf16_shape(*shape, in, res, wt, out, M, N, kEps, nullptr);
}

bool launch(bench::Dtype dtype, const rmsref::LaunchShape* shape, const void* x, const void* w, void* y, int M, int N) {
    constexpr float kEps = 1e-6f;
    const long long s = N;
    switch (dtype) {
        case bench::Dtype::fp32: {
            auto* in = static_cast<const float*>(x);
            auto* wt = static_cast<const float*>(w);
            auto* out = static_cast<float*>(y);
            if (!shape) return ref_rmsnorm_fp32(in, s, wt, out, s, M, N, kEps, nullptr), true;
            return ref_rmsnorm_fp32_shape(*shape, in, s, wt, out, s, M, N, kEps, nullptr);
        }
        case bench::Dtype::bf16: {
            auto* in = static_cast<const __nv_bfloat16*>(x);
            auto* wt = static_cast<const __nv_bfloat16*>(w);
            auto* out = static_cast<__nv_bfloat16*>(y);
            if (!shape) return ref_rmsnorm_bf16(in, s, wt, out, s, M, N, kEps, nullptr), true;
            return ref_rmsnorm_bf16_shape(*shape, in, s, wt, out, s, M, N, kEps, nullptr);
        }
        case bench::Dtype::fp16: {
            auto* in = static_cast<const __half*>(x);
            auto* wt = static_cast<const __half*>(w);
            auto* out = static_cast<__half*>(y);
            if (!shape) return ref_rmsnorm_fp16(in, s, wt, out, s, M, N, kEps, nullptr), true;
            return ref_rmsnorm_fp16_shape(*shape, in, s, wt, out, s, M, N, kEps, nullptr);
        }
    }
    return false;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: profile_one [fused-]fp32|bf16|fp16 M N [SHAPE|rule|copy] [LAUNCHES]\n");
        return 2;
    }
    const std::string arg = argv[1];
    const bool fused = arg.rfind("fused-", 0) == 0;
    const std::string dt = fused ? arg.substr(6) : arg;
    const bench::Dtype dtype = dt == "fp32"   ? bench::Dtype::fp32
                               : dt == "fp16" ? bench::Dtype::fp16
                                              : bench::Dtype::bf16;
    const int M = std::atoi(argv[2]), N = std::atoi(argv[3]);
    const std::string want = argc > 4 ? argv[4] : "rule";
    const int launches = argc > 5 ? std::atoi(argv[5]) : 3;
    const int eb = bench::dtype_bytes(dtype);
    rmsref::LaunchShape chosen = rmsref::choose_shape(N, eb, M, fused);
    const rmsref::LaunchShape* shape = nullptr;
    const bool copy = want == "copy";
    if (want != "rule" && !copy) {
        bool found = false;
        for (const rmsref::LaunchShape& s : rmsref::candidate_shapes(N, eb, true, true, fused))
            if (rmsref::shape_name(s) == want) chosen = s, found = true;
        if (!found) {
            std::fprintf(stderr, "profile_one: no shape %s at N = %d\n", want.c_str(), N);
            return 2;
        }
        shape = &chosen;
    }
    const size_t bytes = size_t(M) * N * eb;
    std::vector<void*> xs(launches), ys(launches), rs(launches, nullptr);
    void* w = nullptr;
    CUDA_CHECK(cudaMalloc(&w, size_t(N) * eb));
    bench::fill_normal(dtype, w, N, 1, 1.f, 0.1f);
    for (int i = 0; i < launches; ++i) {
        CUDA_CHECK(cudaMalloc(&xs[i], bytes));
        CUDA_CHECK(cudaMalloc(&ys[i], bytes));
        bench::fill_normal(dtype, xs[i], size_t(M) * N, 10 + i, 0.f, 1.f);
        if (fused) {
            CUDA_CHECK(cudaMalloc(&rs[i], bytes));
            bench::fill_normal(dtype, rs[i], size_t(M) * N, 100 + i, 0.f, 1.f);
        }
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < launches; ++i) {
        if (copy) bench::copy_kernel(ys[i], xs[i], bytes, nullptr);
        else if (!(fused ? launch_fused(dtype, shape, xs[i], rs[i], w, ys[i], M, N)
                         : launch(dtype, shape, xs[i], w, ys[i], M, N))) {
            std::fprintf(stderr, "profile_one: shape %s cannot run N = %d\n", want.c_str(), N);
            return 2;
        }
        CUDA_CHECK(cudaGetLastError());
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    std::printf("profile_one: %s %d x %d %s (%s), %d launches\n", arg.c_str(), M, N, want.c_str(),
                rmsref::shape_name(chosen).c_str(), launches);
    for (int i = 0; i < launches; ++i) {
        CUDA_CHECK(cudaFree(xs[i]));
        CUDA_CHECK(cudaFree(ys[i]));
        if (rs[i]) CUDA_CHECK(cudaFree(rs[i]));
    }
    CUDA_CHECK(cudaFree(w));
    return 0;
}
