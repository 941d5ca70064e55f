// fp64 references of the lesson 05 contracts (the comment at the top of each exercise file) and the tolerance each
// comparison allows, with the reason for it.
#pragma once

#include "testkit/half_bits.hpp"

namespace wb05 {

using wb::testkit::Half;

// The exact statistics of one row (inputs are exactly representable in the storage type, so these are exact up to
// fp64 rounding, which is 2^29 times finer than fp32's).
struct RowStats {
    double mean = 0;          // sum(x) / N
    double var = 0;           // sum((x - mean)^2) / N: the biased (population) variance
    double mean_abs = 0;      // sum(|x|) / N: sets how large the rounding error of an fp32 mean can be
    double serial_error = 0;  // |fp32 mean summed left to right - mean|: what the plainest order gets wrong on this row
    double rstd(double eps) const;
};
RowStats row_stats(const double* x, int n);

// Rows holding NaN or Inf have an IEEE-defined but useless output; the tests only require that such a row does not
// spoil the others, so its own outputs are not checked.
bool all_finite(const double* x, int n);

// ---- what a correct fp32 kernel may get wrong ----------------------------------------------------------------
// 1. The mean. An fp32 sum of N terms, in ANY order a kernel may choose (a thread's loop, a tree of shuffles, one
//    thread serially), has a rounding error that for varied data stays near sqrt(steps) * 2^-24 * sum|x| (independent
//    rounding errors add like a random walk; Higham, Accuracy and Stability of Numerical Algorithms, section 4.6) and
//    is at most N * 2^-24 * sum|x|. Rows whose roundings all go one way (a constant row of 0.1, where a serial sum
//    drifts steadily) come closer to the worst case, so mean_error() allows (4 sqrt(N) + 32) * 2^-24 * mean|x|, 4x
//    the random-walk size of a serial sum plus a fixed depth for trees and the division, PLUS twice the error that the
//    left-to-right fp32 sum -- the deepest order -- actually makes on this row. For zero-mean rows of N(0,1) values
//    this is about 1e-5 of the spread; for a row of mean 1e4 and spread 1 it is 0.1 of the spread, a loose bound for
//    such rows, and still far less than what E[x^2] - E[x]^2 gets wrong there (the variance itself: lesson section 2).
// 2. The variance around a mean that is off by delta is var + delta^2 (never less), so rstd may be low by the
//    relative amount delta^2 / (2 (var + eps)).
// 3. Everything else (the sum of squared distances, all positive; rsqrtf; three products and an add): a relative
//    error of a few 1e-6 of each term, as in lesson 04: kRtol = 1e-5 of |(x - mean) rstd w| + |b|, plus kAtol for
//    results that are exactly or nearly zero.
constexpr double kRtol = 1e-5;
constexpr double kAtol = 1e-6;
double mean_error(const RowStats& s, int n);
double variance_shift(const RowStats& s, int n, double eps);  // part 2: delta^2 / (2 (var + eps)), relative
double rstd_rel_error(const RowStats& s, int n, double eps);

// |got - ref| allowed for output element (x, w, b) of a row with statistics s: the three parts above.
double output_tolerance(const RowStats& s, int n, double eps, double x, double w, double b);
double output_reference(const RowStats& s, double eps, double x, double w, double b);

// ---- bf16 / fp16 outputs ------------------------------------------------------------------------------------
// The fp32 value may lie anywhere in [ref - tol, ref + tol] (tol as for fp32); one rounding to T follows. The
// accepted outputs are every value of T between T(ref - tol) and T(ref + tol): usually one, two where the interval
// meets a rounding boundary. A second rounding (T(T(xhat) * w + b), lesson 04's Llama order), statistics in T, or
// the fp32 sum normalised instead of the rounded residual move a large share of the elements outside.
struct HalfRange {
    double lo = 0, hi = 0;  // representable in T, lo <= hi
    bool contains(double got) const { return got >= lo && got <= hi; }
};
HalfRange half_range(Half t, double ref, double tol);

// Fused add: residual <- T(float(input) + float(residual)); the float sum is exact unless the exponents differ by
// more than 24 - 8 bits, and then the contract's own fp32 rounding is what the kernel does too, so it is mirrored.
double fused_residual(Half t, double input, double residual);

}  // namespace wb05
