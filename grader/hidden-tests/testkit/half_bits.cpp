#include "half_bits.hpp"

#include <cmath>
#include <cstring>
#include <limits>

namespace wb::testkit {

namespace {

struct Format {
    int fraction_bits;  // explicit mantissa bits
    int min_exponent;   // exponent of the smallest normal number
    int max_exponent;   // exponent of the largest finite number
};

Format format(Half t) { return t == Half::bf16 ? Format{7, -126, 127} : Format{10, -14, 15}; }

}  // namespace

const char* type_name(Half t) { return t == Half::bf16 ? "bf16" : "fp16"; }

double max_finite(Half t) {
    const Format f = format(t);
    return std::ldexp(2.0 - std::ldexp(1.0, -f.fraction_bits), f.max_exponent);
}

namespace {

// One rounding of v (finite or not) to the format, in floating point of type F: v scaled by the power of two that
// makes the format's quantum at v's exponent 1 (exact), rounded to an integer by the mode, scaled back (exact).
template <class F>
F round_value(Half t, F v, Rounding mode) {
    if (std::isnan(v) || std::isinf(v) || v == 0) return v;
    const Format f = format(t);
    int exponent = std::ilogb(v);                              // |v| in [2^exponent, 2^(exponent+1))
    if (exponent < f.min_exponent) exponent = f.min_exponent;  // subnormal range: fixed quantum
    const int quantum = exponent - f.fraction_bits;
    const F scaled = std::ldexp(v, -quantum);
    F k = 0;
    switch (mode) {
        case Rounding::nearest_even: k = std::nearbyint(scaled); break;  // default rounding mode: ties to even
        case Rounding::toward_zero: k = std::trunc(scaled); break;
        case Rounding::down: k = std::floor(scaled); break;
        case Rounding::up: k = std::ceil(scaled); break;
    }
    const F r = std::ldexp(k, quantum);
    if (std::fabs(r) > max_finite(t)) {
        // Past the largest finite value: infinity unless the mode rounds toward zero from v's side.
        const bool to_inf =
            mode == Rounding::nearest_even || (mode == Rounding::up && v > 0) || (mode == Rounding::down && v < 0);
        return std::copysign(to_inf ? std::numeric_limits<F>::infinity() : F(max_finite(t)), v);
    }
    return std::copysign(r, v);  // a value rounded to zero keeps its sign
}

}  // namespace

double round_to(Half t, double v) { return round_value(t, v, Rounding::nearest_even); }

std::uint16_t round_bits(Half t, long double x, Rounding mode) {
    if (std::isnan(x)) return 0x7FFF;
    return to_bits(t, static_cast<double>(round_value(t, x, mode)));  // exact: the result is representable
}

double next_up(Half t, double v) {
    const Format f = format(t);
    if (v == 0.0) return std::ldexp(1.0, f.min_exponent - f.fraction_bits);
    int e2 = 0;
    std::frexp(v, &e2);
    int exponent = e2 - 1;
    // Going up from a negative power of two steps by the smaller quantum of the binade below.
    if (v < 0 && std::fabs(v) == std::ldexp(1.0, exponent)) exponent -= 1;
    if (exponent < f.min_exponent) exponent = f.min_exponent;
    double up = v + std::ldexp(1.0, exponent - f.fraction_bits);
    if (up > max_finite(t)) return std::numeric_limits<double>::infinity();
    return up;
}

std::uint16_t to_bits(Half t, double v) {
    if (t == Half::bf16) {
        if (std::isnan(v)) return 0x7FC0;
        float fv = static_cast<float>(v);  // exact: every bf16 value is a float
        std::uint32_t u = 0;
        std::memcpy(&u, &fv, sizeof u);
        return static_cast<std::uint16_t>(u >> 16);
    }
    if (std::isnan(v)) return 0x7E00;
    std::uint16_t sign = std::signbit(v) ? 0x8000 : 0;
    double a = std::fabs(v);
    if (std::isinf(a)) return sign | 0x7C00;
    if (a == 0.0) return sign;
    if (a < std::ldexp(1.0, -14)) return sign | static_cast<std::uint16_t>(std::ldexp(a, 24));  // subnormal
    int e2 = 0;
    double m = std::frexp(a, &e2);  // a = m * 2^e2, m in [0.5, 1)
    std::uint16_t exponent = static_cast<std::uint16_t>(e2 - 1 + 15);
    std::uint16_t mantissa = static_cast<std::uint16_t>(std::ldexp(m * 2.0 - 1.0, 10));
    return sign | static_cast<std::uint16_t>(exponent << 10) | mantissa;
}

double from_bits(Half t, std::uint16_t bits) {
    if (t == Half::bf16) {
        std::uint32_t u = static_cast<std::uint32_t>(bits) << 16;
        float f = 0;
        std::memcpy(&f, &u, sizeof f);
        return f;
    }
    const double sign = (bits & 0x8000) ? -1.0 : 1.0;
    const int exponent = (bits >> 10) & 0x1F;
    const int mantissa = bits & 0x3FF;
    if (exponent == 0x1F)
        return mantissa ? std::numeric_limits<double>::quiet_NaN() : sign * std::numeric_limits<double>::infinity();
    if (exponent == 0) return sign * std::ldexp(mantissa, -24);
    return sign * std::ldexp(1024 + mantissa, exponent - 25);
}

}  // namespace wb::testkit
