#include "reference.hpp"

#include <cmath>

namespace wb04 {

double inv_rms(const double* x, int n, double eps) {
    double sum = 0;
    for (int i = 0; i < n; ++i) sum += x[i] * x[i];
    return 1.0 / std::sqrt(sum / n + eps);
}

bool all_finite(const double* x, int n) {
    for (int i = 0; i < n; ++i)
        if (!std::isfinite(x[i])) return false;
    return true;
}

bool HalfAccept::contains(double got) const {
    for (int i = 0; i < count; ++i)
        if (values[i] == got) return true;
    return false;
}

HalfAccept half_output(Half t, double x, double inv, double w) {
    HalfAccept a;
    double lo = x * inv * (1 - kHalfInvRtol);
    double hi = x * inv * (1 + kHalfInvRtol);
    if (lo > hi) std::swap(lo, hi);
    double tv = round_to(t, lo);
    const double t_hi = round_to(t, hi);
    while (a.count < 4) {
        const double y = round_to(t, tv * w);  // tv * w is exact in double, and in float (see reference.hpp)
        bool seen = false;
        for (int i = 0; i < a.count; ++i) seen = seen || a.values[i] == y;
        if (!seen) a.values[a.count++] = y;
        if (!(tv < t_hi) || std::isinf(tv)) break;
        tv = next_up(t, tv);
    }
    return a;
}

double fused_residual(Half t, double input, double residual) {
    const float sum = static_cast<float>(input) + static_cast<float>(residual);
    return round_to(t, sum);
}

double block_sum_tolerance(const double* x, int n) {
    double abs_sum = 0;
    for (int i = 0; i < n; ++i) abs_sum += std::fabs(x[i]);
    const double nu = (n - 1) * std::ldexp(1.0, -24);
    return nu / (1 - nu) * abs_sum;
}

}  // namespace wb04
