// fp64 references of the lesson 04 contracts (docs/architecture.md, "Exercises of lesson 04") and the tolerance each
// comparison allows, with the reason for it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "testkit/half_bits.hpp"

namespace wb04 {

// The shared hidden-test toolkit (grader/hidden-tests/testkit/), by its names.
using namespace wb::testkit;

// inv = 1 / sqrt(sum(x^2) / N + eps), in fp64.
double inv_rms(const double* x, int n, double eps);

// Rows holding NaN or Inf have an IEEE-defined but useless output (0 * Inf, NaN); the tests only require that such a
// row does not spoil the others, so its own outputs are not checked.
bool all_finite(const double* x, int n);

// ---- fp32 (rmsnorm, rmsnorm_fast): y = x * inv * w --------------------------------------------------------------
// A correct kernel computes inv in fp32: the sum of squares of N <= 16384 terms by a per-thread loop and a tree
// (relative error in practice a few 1e-6, since all terms are positive), rsqrtf (<= 2 ulp = 2.4e-7), then two
// products (2 x 6e-8). The error of y relative to |y| is therefore below ~4e-6 whatever its magnitude; rtol 1e-5
// leaves a margin of 2-3x for other valid orders (one thread per row, another block size). atol 1e-6 only covers
// outputs that are exactly or nearly zero. Wrong formulas are caught by cases where they differ by far more: eps
// outside the root by tiny magnitudes (eps dominates), /sqrt(N) or /block by any row, eps missing by zero rows.
constexpr double kF32Rtol = 1e-5;
constexpr double kF32Atol = 1e-6;
inline double f32_tolerance(double ref) { return kF32Atol + kF32Rtol * (ref < 0 ? -ref : ref); }

// ---- bf16 / fp16 (rmsnorm_half, rmsnorm_vec, fused_add_rmsnorm): y = T( float(T(x * inv)) * float(w) ) ----------
// The only freedom a correct kernel has is the fp32 error of inv (and of the fp32 product x * inv), below ~4e-6
// relative as above; kHalfInvRtol = 1e-5 bounds it. T(x * inv) is then one of the one or two values of T that
// x * inv * (1 +- 1e-5) rounds to, and float(t) * float(w) is exact in fp32 (8x8 or 11x11 significant bits < 24), so
// the final rounding is determined. The accepted outputs are exactly { T(t * w) } for those t: one value for most
// elements, two where x * inv lies within 1e-5 of a rounding boundary of T. This is stricter than "1-2 ulp": normalising
// in another order (T(x * inv * w) with one rounding, FlashInfer's), accumulating in bf16/fp16, or normalising the
// fp32 sum instead of the rounded residual all produce a different rounding in a large share of the elements.
constexpr double kHalfInvRtol = 1e-5;

struct HalfAccept {
    int count = 0;
    double values[4] = {0, 0, 0, 0};
    bool contains(double got) const;  // value equality: -0 == +0; NaN never matches
};

// x and w are representable in t; inv from inv_rms.
HalfAccept half_output(Half t, double x, double inv, double w);

// Fused add: residual <- T(float(input) + float(residual)); the float sum is exact unless the exponents differ by
// more than 24 - 8 bits, and then the contract's own fp32 rounding is what the kernel does too, so it is mirrored.
double fused_residual(Half t, double input, double residual);

// ---- block_reduce: every thread's total = sum of the row -------------------------------------------------------
// With integer-valued inputs of magnitude <= 8 and N <= 16384, every partial sum is an integer below 2^24, exact in
// fp32 in any order: the total must be exactly right. For fractional inputs any order's error is bounded by
// (N-1) u / (1 - (N-1) u) * sum|x| (Higham, Accuracy and Stability of Numerical Algorithms, eq. 4.4), u = 2^-24.
double block_sum_tolerance(const double* x, int n);

}  // namespace wb04
