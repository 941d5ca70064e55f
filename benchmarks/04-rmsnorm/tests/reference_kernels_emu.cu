// The reference kernels of ../kernels on the CPU emulator (ctest `bench04.reference_kernels.emu`): every launch shape
// they have, with the weight loaded early and late, and the shape their rule picks (also under programmatic dependent
// launch, the benchmark's "+pdl" mode), on odd sizes, rows that start off
// a 16-byte boundary, a weight and an output misaligned differently from the input, and a row too long for registers,
// against an fp64 reference computed here on the host. What `bench` checks on a GPU before it times, without one,
// and under the emulator's memory checker (out-of-bounds, uninitialised reads, races).
//
//   reference_kernels_emu        prints "PASS <launches>" or the first failures, exits 1 on any
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "../../common/tests/emu_values.h"
#include "../kernels/reference.h"

namespace {

constexpr float kEps = 1e-6f;

using bench::count_wrong;
using bench::narrow;
using bench::widen;

int g_launches = 0, g_failures = 0;

// One op, type, size and misalignment, every shape. Offsets in elements: input `off`, output 2*off+1, weight off+2.
template <typename T>
void check_case(bool fused, int M, int N, int off, std::mt19937& rng) {
    std::normal_distribution<float> normal(0.f, 1.f);
    const size_t n = size_t(M) * N, pad = 16;
    std::vector<T> hx(n), hw(N), hr(n);
    for (auto& v : hx) v = narrow<T>(normal(rng));
    for (auto& v : hw) v = narrow<T>(1.f + 0.1f * normal(rng));
    for (auto& v : hr) v = narrow<T>(normal(rng));
    // The contract in fp64: h = x (norm) or T(x + r) (fused add), y = h * inv_rms * w.
    std::vector<float> h(n);
    for (size_t i = 0; i < n; ++i) h[i] = fused ? widen(narrow<T>(widen(hx[i]) + widen(hr[i]))) : widen(hx[i]);
    std::vector<double> ref(n);
    for (int r = 0; r < M; ++r) {
        double ss = 0;
        for (int j = 0; j < N; ++j) ss += double(h[size_t(r) * N + j]) * h[size_t(r) * N + j];
        const double inv = 1.0 / std::sqrt(ss / N + kEps);
        for (int j = 0; j < N; ++j) ref[size_t(r) * N + j] = h[size_t(r) * N + j] * inv * widen(hw[j]);
    }
    T *x, *y, *w, *res;
    EMU_CHECK(cudaMalloc(&x, (n + pad) * sizeof(T)));
    EMU_CHECK(cudaMalloc(&y, (n + pad) * sizeof(T)));
    EMU_CHECK(cudaMalloc(&w, (N + pad) * sizeof(T)));
    EMU_CHECK(cudaMalloc(&res, (n + pad) * sizeof(T)));
    T* xo = off < 0 ? x : x + off;
    // off < 0: every operand at its allocation (16-byte aligned), the kernels' ALIGNED path when rows are too.
    T* yo = off < 0 ? y : y + 2 * off + 1;
    T* wo = off < 0 ? w : w + off + 2;
    EMU_CHECK(cudaMemcpy(xo, hx.data(), n * sizeof(T), cudaMemcpyHostToDevice));
    EMU_CHECK(cudaMemcpy(wo, hw.data(), N * sizeof(T), cudaMemcpyHostToDevice));

    std::vector<rmsref::LaunchShape> shapes = rmsref::candidate_shapes(N, sizeof(T), true, true, fused);
    // The benchmark's "+pdl" launch mode (programmatic stream serialization, on a stream of its own, as it is timed)
    // of the rule's shapes for short and long batches: the emulator runs each grid to completion, so the kernels'
    // griddepcontrol pair returns at once, and what is checked is that the cudaLaunchKernelEx path launches the same
    // instance with the same arguments.
    for (int batch : {M, rmsref::kShortBatchRows + 1}) {
        rmsref::LaunchShape pdl = rmsref::choose_shape(N, sizeof(T), batch, fused);
        pdl.pdl = true;
        shapes.push_back(pdl);
    }
    shapes.push_back(rmsref::choose_shape(N, sizeof(T), M, fused));
    cudaStream_t pdl_stream = nullptr;
    EMU_CHECK(cudaStreamCreateWithFlags(&pdl_stream, cudaStreamNonBlocking));
    for (size_t s = 0; s < shapes.size(); ++s) {
        const bool chosen = s + 1 == shapes.size();
        EMU_CHECK(cudaMemset(y, 0xff, (n + pad) * sizeof(T)));  // NaN: an element never written fails
        EMU_CHECK(cudaMemcpy(res, hr.data(), n * sizeof(T), cudaMemcpyHostToDevice));
        bool launched = true;
        cudaStream_t stream = shapes[s].pdl ? pdl_stream : nullptr;
        if constexpr (std::is_same<T, __half>::value) {
            if (fused) continue;  // no fp16 fused add
            launched = ref_rmsnorm_fp16_shape(shapes[s], xo, N, wo, yo, N, M, N, kEps, stream);
        } else if constexpr (std::is_same<T, float>::value) {
            launched = fused ? ref_fused_add_rmsnorm_fp32_shape(shapes[s], xo, res, wo, yo, M, N, kEps, stream)
                             : ref_rmsnorm_fp32_shape(shapes[s], xo, N, wo, yo, N, M, N, kEps, stream);
        } else {
            launched = fused ? ref_fused_add_rmsnorm_bf16_shape(shapes[s], xo, res, wo, yo, M, N, kEps, stream)
                             : ref_rmsnorm_bf16_shape(shapes[s], xo, N, wo, yo, N, M, N, kEps, stream);
        }
        if (!launched) {
            std::printf("FAIL %s %s N=%d: the rule's shape %s cannot run\n", fused ? "fused" : "norm",
                        sizeof(T) == 4 ? "fp32" : "16-bit", N, rmsref::shape_name(shapes[s]).c_str());
            if (chosen || shapes[s].pdl) ++g_failures;
            continue;
        }
        EMU_CHECK(cudaGetLastError());
        EMU_CHECK(cudaDeviceSynchronize());
        ++g_launches;
        const int bad = count_wrong(yo, res, fused, ref, h, n);
        if (bad) {
            ++g_failures;
            std::printf("FAIL %s %s N=%d offset=%d shape %s: %d elements wrong\n", fused ? "fused" : "norm",
                        sizeof(T) == 4                                     ? "fp32"
                        : sizeof(T) == 2 && std::is_same<T, __half>::value ? "fp16"
                                                                           : "bf16",
                        N, off, rmsref::shape_name(shapes[s]).c_str(), bad);
        }
    }
    EMU_CHECK(cudaStreamDestroy(pdl_stream));
    for (T* p : {x, y, w, res}) EMU_CHECK(cudaFree(p));
}

}  // namespace

int main() {
    std::mt19937 rng(2026);
    // Sizes: a single element, under one pack, one pack plus one, a short odd row, a long odd row (2177 = 17 * 128 + 1),
    // and one past the registers of a block in fp32 and bf16 (two passes).
    for (int N : {1, 9, 100, 2177}) {
        for (int off : {0, 3}) {
            for (bool fused : {false, true}) {
                check_case<float>(fused, 3, N, off, rng);
                check_case<__nv_bfloat16>(fused, 3, N, off, rng);
                if (!fused) check_case<__half>(false, 3, N, off, rng);
            }
        }
    }
    // Every operand aligned and rows a multiple of 16 bytes: the kernels' ALIGNED instances.
    for (int N : {8, 1024, 2176}) {
        for (bool fused : {false, true}) {
            check_case<float>(fused, 3, N, -1, rng);
            check_case<__nv_bfloat16>(fused, 3, N, -1, rng);
            if (!fused) check_case<__half>(false, 3, N, -1, rng);
        }
    }
    check_case<float>(false, 2, 16385, 1, rng);
    check_case<float>(true, 2, 16385, 1, rng);
    check_case<__nv_bfloat16>(false, 2, 32769, 1, rng);
    check_case<__nv_bfloat16>(true, 2, 32769, 1, rng);
    if (g_failures) {
        std::printf("FAILED: %d of %d launches\n", g_failures, g_launches);
        return 1;
    }
    std::printf("PASS %d launches\n", g_launches);
    return 0;
}
