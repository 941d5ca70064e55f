// The reference LayerNorm kernels of ../kernels on the CPU emulator (ctest `bench05.reference_kernels.emu`): every
// launch shape they have, with weight and bias loaded early and late, and the shape their rule picks, on odd sizes,
// rows that start off a 16-byte boundary, a weight, bias and output misaligned differently from the input, and rows
// too long for registers, against an fp64 reference computed here on the host. What `bench` checks on a GPU before
// it times, without one, under the emulator's memory checker (out-of-bounds, uninitialised reads, races).
//
//   reference_kernels_emu        prints "PASS <launches>" or the failures, exits 1 on any
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <type_traits>
#include <vector>

#include "../../common/tests/emu_values.h"
#include "../kernels/reference.h"

namespace {

constexpr float kEps = 1e-5f;

using bench::count_wrong;
using bench::narrow;
using bench::type_name;
using bench::widen;

int g_launches = 0, g_failures = 0;

template <typename T>
bool launch(const rmsref::LaunchShape& s, const T* x, T* r, const T* w, const T* b, T* y, int M, int N) {
    if constexpr (sizeof(T) == 4) return ref_layernorm_shape_fp32(s, x, r, w, b, y, M, N, kEps, nullptr);
    else if constexpr (std::is_same<T, __half>::value)
        return ref_layernorm_shape_fp16(s, x, r, w, b, y, M, N, kEps, nullptr);
    else return ref_layernorm_shape_bf16(s, x, r, w, b, y, M, N, kEps, nullptr);
}

// One op, type, size and misalignment, every shape. Offsets in elements: input `off`, output 2*off+1, weight off+2,
// bias off+5. The rows have a mean of 3 against a spread of 1, so that a one-pass E[x^2] - E[x]^2 would show.
template <typename T>
void check_case(bool fused, int M, int N, int off, std::mt19937& rng) {
    std::normal_distribution<float> normal(0.f, 1.f);
    const size_t n = size_t(M) * N, pad = 16;
    std::vector<T> hx(n), hw(N), hb(N), hr(n);
    for (auto& v : hx) v = narrow<T>(3.f + normal(rng));
    for (auto& v : hw) v = narrow<T>(1.f + 0.1f * normal(rng));
    for (auto& v : hb) v = narrow<T>(0.1f * normal(rng));
    for (auto& v : hr) v = narrow<T>(normal(rng));
    // The contract in fp64: h = x (norm) or T(x + r) (fused add), mean and variance by two passes.
    std::vector<float> h(n);
    for (size_t i = 0; i < n; ++i) h[i] = fused ? widen(narrow<T>(widen(hx[i]) + widen(hr[i]))) : widen(hx[i]);
    std::vector<double> ref(n);
    for (int r = 0; r < M; ++r) {
        const float* row = &h[size_t(r) * N];
        double mean = 0, var = 0;
        for (int j = 0; j < N; ++j) mean += row[j];
        mean /= N;
        for (int j = 0; j < N; ++j) var += (row[j] - mean) * (row[j] - mean);
        const double rstd = 1.0 / std::sqrt(var / N + kEps);
        for (int j = 0; j < N; ++j) ref[size_t(r) * N + j] = (row[j] - mean) * rstd * widen(hw[j]) + widen(hb[j]);
    }
    T *x, *y, *w, *b, *res;
    EMU_CHECK(cudaMalloc(&x, (n + pad) * sizeof(T)));
    EMU_CHECK(cudaMalloc(&y, (n + pad) * sizeof(T)));
    EMU_CHECK(cudaMalloc(&w, (N + pad) * sizeof(T)));
    EMU_CHECK(cudaMalloc(&b, (N + pad) * sizeof(T)));
    EMU_CHECK(cudaMalloc(&res, (n + pad) * sizeof(T)));
    T* xo = off < 0 ? x : x + off;
    // off < 0: every operand at its allocation (16-byte aligned), the kernels' ALIGNED path when rows are too.
    T* yo = off < 0 ? y : y + 2 * off + 1;
    T* wo = off < 0 ? w : w + off + 2;
    T* bo = off < 0 ? b : b + off + 5;
    EMU_CHECK(cudaMemcpy(xo, hx.data(), n * sizeof(T), cudaMemcpyHostToDevice));
    EMU_CHECK(cudaMemcpy(wo, hw.data(), N * sizeof(T), cudaMemcpyHostToDevice));
    EMU_CHECK(cudaMemcpy(bo, hb.data(), N * sizeof(T), cudaMemcpyHostToDevice));

    // The capped and streaming options have instances for ALIGNED rows only (a misaligned row runs the plain
    // instance, which the shapes without options already check): with them where every operand is aligned.
    std::vector<rmsref::LaunchShape> shapes = rmsref::candidate_shapes(N, sizeof(T), off < 0);
    shapes.push_back(lnref::choose_shape(N, sizeof(T), M, fused));
    for (size_t s = 0; s < shapes.size(); ++s) {
        EMU_CHECK(cudaMemset(y, 0xff, (n + pad) * sizeof(T)));  // NaN: an element never written fails
        EMU_CHECK(cudaMemcpy(res, hr.data(), n * sizeof(T), cudaMemcpyHostToDevice));
        if (!launch<T>(shapes[s], xo, fused ? res : nullptr, wo, bo, yo, M, N)) {
            if (s + 1 == shapes.size()) {
                std::printf("FAIL %s %s N=%d: the rule's shape %s cannot run\n", fused ? "fused" : "norm",
                            type_name<T>(), N, rmsref::shape_name(shapes[s]).c_str());
                ++g_failures;
            }
            continue;
        }
        EMU_CHECK(cudaGetLastError());
        EMU_CHECK(cudaDeviceSynchronize());
        ++g_launches;
        const int bad = count_wrong(yo, res, fused, ref, h, n);
        if (bad) {
            ++g_failures;
            std::printf("FAIL %s %s N=%d offset=%d (-1: all aligned) shape %s: %d elements wrong\n",
                        fused ? "fused" : "norm", type_name<T>(), N, off, rmsref::shape_name(shapes[s]).c_str(), bad);
        }
    }
    for (T* p : {x, y, w, b, res}) EMU_CHECK(cudaFree(p));
}

}  // namespace

int main() {
    std::mt19937 rng(2027);
    // Sizes: a single element (variance 0: the output is the bias), under one pack, one pack plus one, a short odd
    // row, a long odd row; then rows past the registers of a block (three passes) in fp32 and bf16.
    for (int N : {1, 9, 100, 2177}) {
        for (int off : {0, 3}) {
            check_case<float>(false, 3, N, off, rng);
            check_case<__nv_bfloat16>(false, 3, N, off, rng);
            check_case<__nv_bfloat16>(true, 3, N, off, rng);
            check_case<__half>(false, 3, N, off, rng);
        }
    }
    // Every operand aligned and rows a multiple of 16 bytes: the kernels' ALIGNED instances.
    for (int N : {8, 1024, 2176}) {
        check_case<float>(false, 3, N, -1, rng);
        check_case<__nv_bfloat16>(false, 3, N, -1, rng);
        check_case<__nv_bfloat16>(true, 3, N, -1, rng);
        check_case<__half>(false, 3, N, -1, rng);
    }
    check_case<float>(false, 2, 16385, 1, rng);
    check_case<__nv_bfloat16>(false, 2, 32769, 1, rng);
    check_case<__nv_bfloat16>(true, 2, 32769, 1, rng);
    if (g_failures) {
        std::printf("FAILED: %d of %d launches\n", g_failures, g_launches);
        return 1;
    }
    std::printf("PASS %d launches\n", g_launches);
    return 0;
}
