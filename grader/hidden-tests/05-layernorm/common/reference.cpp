#include "reference.hpp"

#include <cmath>

namespace wb05 {

namespace {
constexpr double kU = 0x1.0p-24;  // the unit roundoff of fp32
}

double RowStats::rstd(double eps) const { return 1.0 / std::sqrt(var + eps); }

RowStats row_stats(const double* x, int n) {
    RowStats s;
    if (n <= 0) return s;
    double sum = 0, abs_sum = 0;
    for (int i = 0; i < n; ++i) {
        sum += x[i];
        abs_sum += std::fabs(x[i]);
    }
    s.mean = sum / n;
    s.mean_abs = abs_sum / n;
    float serial = 0.0f;  // the inputs are fp32 (or 16-bit) values, so the cast is exact
    for (int i = 0; i < n; ++i) serial += static_cast<float>(x[i]);
    s.serial_error = std::fabs(static_cast<double>(serial / static_cast<float>(n)) - s.mean);
    double sq = 0;
    for (int i = 0; i < n; ++i) sq += (x[i] - s.mean) * (x[i] - s.mean);  // two passes in fp64: the accurate way
    s.var = sq / n;
    return s;
}

bool all_finite(const double* x, int n) {
    for (int i = 0; i < n; ++i)
        if (!std::isfinite(x[i])) return false;
    return true;
}

double mean_error(const RowStats& s, int n) {
    return (4.0 * std::sqrt(static_cast<double>(n)) + 32.0) * kU * s.mean_abs + 2.0 * s.serial_error;
}

double variance_shift(const RowStats& s, int n, double eps) {
    const double d = mean_error(s, n);
    return d * d / (2.0 * (s.var + eps));
}

double rstd_rel_error(const RowStats& s, int n, double eps) { return kRtol + variance_shift(s, n, eps); }

double output_reference(const RowStats& s, double eps, double x, double w, double b) {
    return (x - s.mean) * s.rstd(eps) * w + b;
}

double output_tolerance(const RowStats& s, int n, double eps, double x, double w, double b) {
    const double r = s.rstd(eps);
    const double scaled = std::fabs((x - s.mean) * r * w);
    return kAtol + kRtol * (scaled + std::fabs(b)) + scaled * variance_shift(s, n, eps) +
           std::fabs(w) * r * mean_error(s, n);
}

HalfRange half_range(Half t, double ref, double tol) {
    HalfRange h;
    h.lo = wb::testkit::round_to(t, ref - tol);
    h.hi = wb::testkit::round_to(t, ref + tol);
    return h;
}

double fused_residual(Half t, double input, double residual) {
    const float sum = static_cast<float>(input) + static_cast<float>(residual);
    return wb::testkit::round_to(t, sum);
}

}  // namespace wb05
