// Rounding to the 16-bit float formats, independent of any CUDA header: round to nearest, ties to even, with
// overflow to infinity and gradual underflow, as __float2half_rn / __float2bfloat16_rn do.
#pragma once

#include <cmath>
#include <limits>

namespace lesson_test {

struct BinaryFormat {
    int stored_bits;  // significand bits after the leading 1
    int emin;         // exponent of the smallest normal number
    int emax;         // exponent of the largest finite number
};

constexpr BinaryFormat kFp16{10, -14, 15};
constexpr BinaryFormat kBf16{7, -126, 127};

inline double largest_finite(BinaryFormat f) {
    return (2.0 - std::ldexp(1.0, -f.stored_bits)) * std::ldexp(1.0, f.emax);
}

inline double round_to(BinaryFormat f, double v) {
    if (v == 0 || std::isnan(v) || std::isinf(v)) return v;
    int e2 = 0;
    std::frexp(std::fabs(v), &e2);                      // |v| = m · 2^e2 with m in [0.5, 1)
    const int exponent = std::max(e2 - 1, f.emin);      // below emin the spacing stays that of the subnormals
    const double quantum = std::ldexp(1.0, exponent - f.stored_bits);
    const double r = std::nearbyint(std::fabs(v) / quantum) * quantum;  // default mode: nearest, ties to even
    if (r > largest_finite(f)) return std::copysign(std::numeric_limits<double>::infinity(), v);
    return std::copysign(r, v);
}

// The next representable value above v (v finite and positive).
inline double next_up(BinaryFormat f, double v) {
    int e2 = 0;
    std::frexp(v, &e2);
    return v + std::ldexp(1.0, std::max(e2 - 1, f.emin) - f.stored_bits);
}

}  // namespace lesson_test
