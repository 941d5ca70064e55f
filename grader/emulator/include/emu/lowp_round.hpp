// Rounding into the 16-bit float formats (IEEE binary16 "half" and bfloat16), bit-exact with CUDA.
//
// Every conversion into a 16-bit format goes through one routine, round_scaled(), which rounds an exact value
// m·2^e once, in any of CUDA's four rounding modes. Arithmetic computes an exact or round-to-odd double first and
// then rounds once, so results are the correctly rounded ones the GPU's add/mul/fma instructions produce (rounding a
// float result again would double-round: 1 + 2^-11 + 2^-30 is such a case for half fma).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace emu::lowp {

enum class Mode { rn, rz, rd, ru };  // to nearest even, toward zero, down (toward -inf), up (toward +inf)

template <int MANT, int EXP>
struct Format {
    static constexpr int mant = MANT;  // stored fraction bits
    static constexpr int bias = (1 << (EXP - 1)) - 1;
    static constexpr int emin = 1 - bias;  // exponent of the smallest normal
    static constexpr std::uint16_t inf = std::uint16_t(((1u << EXP) - 1u) << MANT);
    // CUDA's canonical NaN for both formats: sign clear, all exponent and fraction bits set. Every NaN input to a
    // conversion or an arithmetic function comes out as this pattern (the payload and the sign are dropped).
    static constexpr std::uint16_t nan = 0x7fff;
};
using Half = Format<10, 5>;
using BF16 = Format<7, 8>;

// Rounds (-1)^neg · m · 2^e2 into Fmt. m may be anything from 0 to 2^64 - 1.
template <class Fmt>
inline std::uint16_t round_scaled(bool neg, std::uint64_t m, int e2, Mode mode) {
    const std::uint16_t sign = neg ? 0x8000u : 0u;
    if (m == 0) return sign;
    const int top = e2 + 63 - __builtin_clzll(m);         // exponent of the leading one
    const int scale = top > Fmt::emin ? top : Fmt::emin;  // binade, or the subnormal range
    const int shift = scale - Fmt::mant - e2;             // bits of m below the target's last place
    std::uint64_t k;                                      // the target's significand, before rounding
    bool round_bit, sticky;
    if (shift <= 0) {
        k = m << -shift;
        round_bit = sticky = false;
    } else if (shift < 64) {
        k = m >> shift;
        round_bit = (m >> (shift - 1)) & 1u;
        sticky = (m & ((std::uint64_t(1) << (shift - 1)) - 1u)) != 0;
    } else {
        k = 0;
        round_bit = shift == 64 && (m >> 63) != 0;
        sticky = shift == 64 ? (m << 1) != 0 : true;
    }
    const bool away = (mode == Mode::ru && !neg) || (mode == Mode::rd && neg);
    if (mode == Mode::rn ? (round_bit && (sticky || (k & 1u))) : (away && (round_bit || sticky))) ++k;
    // For a normal result k carries the implicit one, which adds 1 to the exponent field; a subnormal result has field
    // 0 and k < 2^mant, or k == 2^mant when it rounded up into the smallest normal. One formula covers all three.
    const std::uint64_t field = std::uint64_t(scale + Fmt::bias - 1);
    std::uint64_t enc = (field << Fmt::mant) + k;
    if (enc >= Fmt::inf) enc = (mode == Mode::rn || away) ? Fmt::inf : Fmt::inf - 1u;  // overflow: inf or max finite
    return std::uint16_t(sign | enc);
}

template <class Fmt>
inline std::uint16_t from_double(double x, Mode mode) {
    std::uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    const bool neg = (bits >> 63) != 0;
    const int field = int((bits >> 52) & 0x7ffu);
    const std::uint64_t frac = bits & ((std::uint64_t(1) << 52) - 1u);
    if (field == 0x7ff) return frac != 0 ? Fmt::nan : std::uint16_t((neg ? 0x8000u : 0u) | Fmt::inf);
    if (field == 0) return round_scaled<Fmt>(neg, frac, -1074, mode);
    return round_scaled<Fmt>(neg, frac | (std::uint64_t(1) << 52), field - 1075, mode);
}

// A float converts to double exactly, so this is a single rounding.
template <class Fmt>
inline std::uint16_t from_float(float x, Mode mode) {
    return from_double<Fmt>(double(x), mode);
}

template <class Fmt>
inline std::uint16_t from_int(long long x, Mode mode) {
    const bool neg = x < 0;
    const std::uint64_t m = neg ? std::uint64_t(0) - std::uint64_t(x) : std::uint64_t(x);
    return round_scaled<Fmt>(neg, m, 0, mode);
}
template <class Fmt>
inline std::uint16_t from_uint(unsigned long long x, Mode mode) {
    return round_scaled<Fmt>(false, x, 0, mode);
}

// Exact: every half is a float. NaN becomes the canonical float NaN 0x7fffffff, sign dropped, as CUDA does.
inline float half_to_float(std::uint16_t h) {
    const bool neg = (h & 0x8000u) != 0;
    const int field = (h >> 10) & 0x1f;
    const int frac = h & 0x3ff;
    float mag;
    if (field == 0x1f) {
        if (frac != 0) {
            const std::uint32_t nan_bits = 0x7fffffffu;
            std::memcpy(&mag, &nan_bits, sizeof mag);
            return mag;
        }
        mag = std::numeric_limits<float>::infinity();
    } else if (field == 0) {
        mag = std::ldexp(float(frac), -24);
    } else {
        mag = std::ldexp(float(frac | 0x400), field - 25);
    }
    return neg ? -mag : mag;
}

// Exact: a bfloat16 is the upper half of a float. A NaN keeps its payload and sign (the GPU only shifts the bits).
inline float bf16_to_float(std::uint16_t b) {
    const std::uint32_t bits = std::uint32_t(b) << 16;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

// ---- round-to-odd doubles ------------------------------------------------------------------------------------
// A value rounded to odd at 53 bits and then rounded to nearest at 11 or 8 bits is the correctly rounded value
// (Boldo & Melquiond), so these give the single-rounding results of the GPU's half/bf16 instructions.

// r is the round-to-nearest result of an operation whose exact result is r + (something with the sign of dir).
inline double to_odd(double r, double dir) {
    if (dir == 0 || !std::isfinite(r)) return r;
    std::uint64_t bits;
    std::memcpy(&bits, &r, sizeof bits);
    if (bits & 1u) return r;
    return std::nextafter(r,
                          dir > 0 ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity());
}

inline double add_odd(double a, double b) {
    const double s = a + b;
    if (!std::isfinite(s)) return s;
    const double bb = s - a;
    const double err = (a - (s - bb)) + (b - bb);  // TwoSum: the exact rounding error of s
    return to_odd(s, err);
}

// Products of two halves or two bfloat16 values (at most 22 significant bits) are exact in double.
inline double fma_odd(double a, double b, double c) { return add_odd(a * b, c); }

inline double div_odd(double a, double b) {
    const double q = a / b;
    if (!std::isfinite(q) || q == 0 || !std::isfinite(b)) return q;
    const double rem = std::fma(-q, b, a);  // exact: a - q·b
    return to_odd(q, b > 0 ? rem : -rem);
}

inline double sqrt_odd(double a) {
    const double s = std::sqrt(a);
    if (!std::isfinite(s) || s == 0) return s;
    return to_odd(s, std::fma(-s, s, a));  // exact: a - s²
}

}  // namespace emu::lowp
