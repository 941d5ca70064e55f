// An independent reference for rounding into half and bfloat16, for the tests only.
//
// Written differently from emu/lowp_round.hpp on purpose: floating-point scaling in long double (64-bit significand,
// so every float, every half/bf16 product and every sum the tests form is exact) instead of integer bit surgery,
// the tie decided by comparing the discarded fraction with 0.5, and the result encoded from its value.
#pragma once

#include <cmath>
#include <cstdint>

namespace ref {

enum class Mode { rn, rz, rd, ru };

struct Format {
    int mant;           // fraction bits
    int emin;           // exponent of the smallest normal
    int emax;           // exponent of the largest finite binade
    std::uint16_t inf;  // bit pattern of +inf
};
constexpr Format kHalf{10, -14, 15, 0x7c00};
constexpr Format kBF16{7, -126, 127, 0x7f80};

inline long double max_finite(const Format& f) { return std::ldexp(2.0L - std::ldexp(1.0L, -f.mant), f.emax); }

// Bits of a finite non-negative value that is exactly representable in f.
inline std::uint16_t encode(const Format& f, long double r) {
    if (r < std::ldexp(1.0L, f.emin)) return std::uint16_t(std::ldexp(r, f.mant - f.emin));  // subnormal or zero
    const int e = std::ilogb(r);
    const long double frac = std::ldexp(r, f.mant - e) - std::ldexp(1.0L, f.mant);
    return std::uint16_t(((e - f.emin + 1) << f.mant) + int(frac));
}

inline std::uint16_t round(const Format& f, long double x, Mode mode) {
    if (std::isnan(x)) return 0x7fff;
    const std::uint16_t sign = std::signbit(x) ? 0x8000 : 0;
    const long double a = std::fabs(x);
    if (std::isinf(a)) return sign | f.inf;
    if (a == 0) return sign;
    int e = std::ilogb(a);
    if (e < f.emin) e = f.emin;
    const long double ulp = std::ldexp(1.0L, e - f.mant);
    const long double q = a / ulp;  // exact: a power-of-two scaling
    long double k = std::floor(q);
    const long double rest = q - k;  // discarded part, in ulps
    const bool negative = sign != 0;
    const bool away = (mode == Mode::ru && !negative) || (mode == Mode::rd && negative);
    if (mode == Mode::rn) {
        if (rest > 0.5L || (rest == 0.5L && std::fmod(k, 2.0L) == 1.0L)) k += 1;
    } else if (away && rest > 0) {
        k += 1;
    }
    const long double r = k * ulp;
    if (r > max_finite(f)) {
        const bool to_inf = mode == Mode::rn || away;
        return sign | (to_inf ? f.inf : std::uint16_t(f.inf - 1));
    }
    return sign | encode(f, r);
}

// Value of a 16-bit pattern, from its fields (NaN as a quiet NaN).
inline long double value(const Format& f, std::uint16_t bits) {
    const bool negative = (bits & 0x8000) != 0;
    const int exp_bits = 15 - f.mant;
    const int field = (bits >> f.mant) & ((1 << exp_bits) - 1);
    const int frac = bits & ((1 << f.mant) - 1);
    long double v;
    if (field == (1 << exp_bits) - 1) {
        if (frac != 0) return NAN;
        v = INFINITY;
    } else if (field == 0) {
        v = std::ldexp((long double)frac, f.emin - f.mant);
    } else {
        v = std::ldexp((long double)(frac + (1 << f.mant)), field - 1 + f.emin - f.mant);
    }
    return negative ? -v : v;
}

}  // namespace ref
