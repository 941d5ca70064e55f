// One reference LayerNorm kernel at one shape, a few launches and nothing else: what Nsight Compute profiles
// (ncu --clock-control none -k regex:layernorm ./profile_one bf16 16384 4096 rule). The benchmark itself launches
// thousands of kernels (its edge checks, the tuning sweep), which a profiler would replay one by one. Lesson 04's
// bench/profile_one.cu for lesson 05's kernels.
//
//   profile_one DTYPE M N [SHAPE] [LAUNCHES]
//     DTYPE fp32 | bf16 | fp16 (the norm) or fused-bf16 (the fused add); SHAPE a name of launch_shape.h's shape_name
//     (one of candidate_shapes(N) with the options), or `rule` (the default: the rule's pick); LAUNCHES (default 3)
//     launches, each on fresh inputs in its own buffers, each timed with CUDA events (one launch at a time, not the
//     benchmark's graphs: for comparing two builds of the kernels in one call, and what ncu sees).
// Build (GPU machine): nvcc -std=c++17 -O3 -arch=sm_90 -o profile_one bench/profile_one.cu kernels/layernorm.cu
//                      ../common/device_data.cu
// Exit status: 0, or 2 on a bad argument or a shape the kernels cannot run at N.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "../../common/cuda_check.h"
#include "../../common/device_data.h"
#include "../kernels/reference.h"

namespace {

bool launch(bench::Dtype dtype, const rmsref::LaunchShape& s, const void* x, void* r, const void* w, const void* b,
            void* y, int M, int N) {
    constexpr float kEps = 1e-5f;
    switch (dtype) {
        case bench::Dtype::fp32:
            return ref_layernorm_shape_fp32(s, static_cast<const float*>(x), static_cast<float*>(r),
                                            static_cast<const float*>(w), static_cast<const float*>(b),
                                            static_cast<float*>(y), M, N, kEps, nullptr);
        case bench::Dtype::bf16:
            return ref_layernorm_shape_bf16(s, static_cast<const __nv_bfloat16*>(x), static_cast<__nv_bfloat16*>(r),
                                            static_cast<const __nv_bfloat16*>(w), static_cast<const __nv_bfloat16*>(b),
                                            static_cast<__nv_bfloat16*>(y), M, N, kEps, nullptr);
        case bench::Dtype::fp16:
            return ref_layernorm_shape_fp16(s, static_cast<const __half*>(x), static_cast<__half*>(r),
                                            static_cast<const __half*>(w), static_cast<const __half*>(b),
                                            static_cast<__half*>(y), M, N, kEps, nullptr);
    }
    return false;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: profile_one fp32|bf16|fp16|fused-bf16 M N [SHAPE|rule] [LAUNCHES]\n");
        return 2;
    }
    const std::string arg = argv[1];
    const bool fused = arg == "fused-bf16";
    const bench::Dtype dtype = arg == "fp32"   ? bench::Dtype::fp32
                               : arg == "fp16" ? bench::Dtype::fp16
                                               : bench::Dtype::bf16;
    const int M = std::atoi(argv[2]), N = std::atoi(argv[3]);
    const std::string want = argc > 4 ? argv[4] : "rule";
    const int launches = argc > 5 ? std::atoi(argv[5]) : 3;
    const int eb = bench::dtype_bytes(dtype);
    rmsref::LaunchShape chosen = lnref::choose_shape(N, eb, M, fused);
    if (want != "rule") {
        bool found = false;
        for (const rmsref::LaunchShape& s : rmsref::candidate_shapes(N, eb, true))
            if (rmsref::shape_name(s) == want) chosen = s, found = true;
        if (!found) {
            std::fprintf(stderr, "profile_one: no shape %s at N = %d\n", want.c_str(), N);
            return 2;
        }
    }
    const size_t bytes = size_t(M) * N * eb;
    std::vector<void*> xs(launches), ys(launches), rs(launches, nullptr);
    void *w = nullptr, *b = nullptr;
    CUDA_CHECK(cudaMalloc(&w, size_t(N) * eb));
    CUDA_CHECK(cudaMalloc(&b, size_t(N) * eb));
    bench::fill_normal(dtype, w, N, 1, 1.f, 0.1f);
    bench::fill_normal(dtype, b, N, 2, 0.f, 0.1f);
    for (int i = 0; i < launches; ++i) {
        CUDA_CHECK(cudaMalloc(&xs[i], bytes));
        CUDA_CHECK(cudaMalloc(&ys[i], bytes));
        bench::fill_normal(dtype, xs[i], size_t(M) * N, 10 + i, 0.5f, 1.f);
        if (fused) {
            CUDA_CHECK(cudaMalloc(&rs[i], bytes));
            bench::fill_normal(dtype, rs[i], size_t(M) * N, 100 + i, 0.f, 1.f);
        }
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<cudaEvent_t> marks(launches + 1);
    for (cudaEvent_t& e : marks) CUDA_CHECK(cudaEventCreate(&e));
    CUDA_CHECK(cudaEventRecord(marks[0]));
    for (int i = 0; i < launches; ++i) {
        if (!launch(dtype, chosen, xs[i], rs[i], w, b, ys[i], M, N)) {
            std::fprintf(stderr, "profile_one: shape %s cannot run N = %d\n", want.c_str(), N);
            return 2;
        }
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaEventRecord(marks[i + 1]));
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    // Bytes moved: x read and y written (fused: also the residual read and written), weight and bias read once.
    const double moved = double(bytes) * (fused ? 4 : 2) + 2.0 * N * eb;
    std::printf("profile_one: %s %d x %d %s (%s), %d launches; us (TB/s):", arg.c_str(), M, N, want.c_str(),
                rmsref::shape_name(chosen).c_str(), launches);
    for (int i = 0; i < launches; ++i) {
        float ms = 0;
        CUDA_CHECK(cudaEventElapsedTime(&ms, marks[i], marks[i + 1]));
        std::printf(" %.2f (%.2f)", ms * 1e3, moved / (ms * 1e-3) / 1e12);
    }
    std::printf("\n");
    for (cudaEvent_t& e : marks) CUDA_CHECK(cudaEventDestroy(e));
    for (int i = 0; i < launches; ++i) {
        CUDA_CHECK(cudaFree(xs[i]));
        CUDA_CHECK(cudaFree(ys[i]));
        if (rs[i]) CUDA_CHECK(cudaFree(rs[i]));
    }
    CUDA_CHECK(cudaFree(w));
    CUDA_CHECK(cudaFree(b));
    return 0;
}
