// Rounding into and out of CUDA's 8-bit floating-point formats (E4M3 and E5M2), bit-exact with cuda_fp8.h:
// round to nearest even; a NaN stays NaN; a value beyond the format either saturates to the largest finite value
// (__NV_SATFINITE) or becomes the format's overflow pattern (__NV_NOSAT: NaN for E4M3, which has no infinity;
// infinity for E5M2). Values at or below half the smallest subnormal become a zero of their sign.
//
// Integer arithmetic on the double's bits: the float, half and bfloat16 conversions widen exactly to double first,
// as CUDA's software path does, so one routine rounds them all.
#pragma once
#include <cstdint>
#include <cstring>

namespace emu::fp8 {

struct Format {
    int mant;  // fraction bits
    int bias;
    std::uint8_t max_finite;  // bits of the largest finite value
    std::uint8_t overflow;    // what a too-large value becomes without saturation (NaN for E4M3, inf for E5M2)
    bool has_inf;
};
constexpr Format kE4M3{3, 7, 0x7e, 0x7f, false};
constexpr Format kE5M2{2, 15, 0x7b, 0x7c, true};

// Exactly representable magnitude of fp8 bits (sign ignored); `nan` set for NaN patterns, `inf` for infinity.
inline double magnitude(const Format& f, std::uint8_t bits, bool* nan, bool* inf) {
    const unsigned field = (bits >> f.mant) & ((1u << (7 - f.mant)) - 1u);
    const unsigned frac = bits & ((1u << f.mant) - 1u);
    const unsigned top_field = (1u << (7 - f.mant)) - 1u;
    *nan = false;
    *inf = false;
    if (f.has_inf && field == top_field) {
        *nan = frac != 0;
        *inf = frac == 0;
        return 0;
    }
    if (!f.has_inf && (bits & 0x7f) == 0x7f) {
        *nan = true;
        return 0;
    }
    double m = field == 0 ? frac : (frac + (1u << f.mant));
    int e = (field == 0 ? 1 : static_cast<int>(field)) - f.bias - f.mant;
    while (e > 0) {
        m *= 2;
        --e;
    }
    while (e < 0) {
        m /= 2;
        ++e;
    }
    return m;
}

// double -> fp8, with the NaN rule of CUDA's double conversion: a NaN keeps its sign (E4M3: 0x7f; E5M2: 0x7e plus
// the payload's top two bits, so always a quiet NaN).
inline std::uint8_t from_double(const Format& f, double x, bool saturate) {
    std::uint64_t b;
    std::memcpy(&b, &x, sizeof b);
    const std::uint8_t sign = static_cast<std::uint8_t>((b >> 63) << 7);
    const std::uint64_t abs = b & 0x7fffffffffffffffull;
    const int dexp = static_cast<int>(abs >> 52);
    const std::uint64_t dfrac = abs & ((1ull << 52) - 1);
    if (dexp == 0x7ff && dfrac != 0) {
        const std::uint8_t nan = f.has_inf ? static_cast<std::uint8_t>(0x7c | 0x02 | ((dfrac >> 50) & 0x3)) : 0x7f;
        return sign | nan;
    }
    if (dexp == 0x7ff) return sign | (saturate ? f.max_finite : f.overflow);
    if (abs == 0) return sign;
    // Significand with its implicit bit, and the exponent of its lowest bit.
    const std::uint64_t sig = dexp == 0 ? dfrac : (dfrac | (1ull << 52));
    const int e_low = (dexp == 0 ? 1 : dexp) - 1023 - 52;
    // The exponent of the value's leading bit, and of the fp8 result's lowest kept bit (clamped at the subnormals).
    const int lead = e_low + 63 - __builtin_clzll(sig);
    const int emin = 1 - f.bias;
    const int keep_low = (lead < emin ? emin : lead) - f.mant;
    const int shift = keep_low - e_low;  // bits of sig below the kept ones
    std::uint64_t q;
    if (shift <= 0) {
        q = sig << -shift;  // cannot happen for doubles in fp8's range, kept for completeness
    } else if (shift >= 64) {
        q = 0;  // far below half the smallest subnormal
    } else {
        q = sig >> shift;
        const std::uint64_t rest = sig & ((1ull << shift) - 1);
        const std::uint64_t half = 1ull << (shift - 1);
        if (rest > half || (rest == half && (q & 1))) ++q;
    }
    // q counts units of 2^keep_low; encode (a carry into the next binade, or out of the subnormals, adds up right).
    std::uint64_t bits;
    if (keep_low == emin - f.mant) {
        bits = q;  // subnormal (or the smallest normal after a carry)
    } else {
        const std::uint64_t field = static_cast<std::uint64_t>(keep_low + f.mant + f.bias);
        bits = (field << f.mant) + (q - (1ull << f.mant));
    }
    if (bits > f.max_finite) return sign | (saturate ? f.max_finite : f.overflow);
    return sign | static_cast<std::uint8_t>(bits);
}

// float -> fp8: CUDA first makes every NaN the canonical positive NaN (so the result is 0x7f in both formats).
inline std::uint8_t from_float(const Format& f, float x, bool saturate) {
    if (x != x) return 0x7f;
    return from_double(f, static_cast<double>(x), saturate);
}

// fp8 -> half bits: exact; every NaN becomes half's canonical NaN 0x7fff (sign dropped).
inline std::uint16_t to_half_bits(const Format& f, std::uint8_t bits) {
    bool nan, inf;
    const double m = magnitude(f, bits, &nan, &inf);
    const std::uint16_t sign = static_cast<std::uint16_t>((bits & 0x80u) << 8);
    if (nan) return 0x7fff;
    if (inf) return sign | 0x7c00;
    if (m == 0) return sign;
    // Every fp8 value is a normal or subnormal half with at most 3 fraction bits: encode from the value.
    int e = 0;
    double r = m;
    while (r >= 2) {
        r /= 2;
        ++e;
    }
    while (r < 1) {
        r *= 2;
        --e;
    }
    if (e < -14) {  // half subnormal: units of 2^-24
        double units = m;
        for (int i = 0; i < 24; ++i) units *= 2;
        return sign | static_cast<std::uint16_t>(units);
    }
    const auto frac = static_cast<std::uint16_t>((r - 1) * 1024);
    return sign | static_cast<std::uint16_t>(((e + 15) << 10) | frac);
}

}  // namespace emu::fp8
