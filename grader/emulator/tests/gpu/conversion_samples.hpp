// The float inputs on which conversions into half and bfloat16 are checked: by the emulator's own tests (against an
// independent reference), and on a real GPU by conversions_gpu.cu (whose output compare_conversions checks against
// the emulator). Plain C++, deterministic, the same list on every machine.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

namespace conv_samples {

// SplitMix64: a fixed, portable generator, so the list does not depend on the standard library.
struct Rng {
    std::uint64_t s;
    std::uint64_t next() {
        std::uint64_t z = (s += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
};

inline std::uint32_t bits_of(int sign, int field, std::uint32_t frac) {
    return (std::uint32_t(sign) << 31) | (std::uint32_t(field) << 23) | (frac & 0x7fffffu);
}

// Position (in the float's 23 fraction bits) of the target's last kept bit, for a float with exponent field `field`:
// everything below it is rounded away. Half keeps 10 bits for normal halves and fewer in its subnormal range;
// bfloat16 keeps 7 bits everywhere (it shares float's exponent range). Values above the target's range keep nothing
// interesting, so they use the normal position.
inline int kept_position(int field, bool half) {
    if (!half) return 16;
    const int e = field - 127;        // float exponent (field 0: subnormal float, treat like the smallest)
    if (e >= -14) return 13;          // a normal half: 10 fraction bits kept
    const int drop = 13 + (-14 - e);  // a subnormal half: fewer kept
    return drop > 24 ? 24 : drop;
}

inline std::vector<std::uint32_t> float_samples() {
    std::vector<std::uint32_t> out;
    // Every 4099th bit pattern: all exponents, signs and NaN payloads, evenly.
    for (std::uint64_t i = 0; i < (1ull << 32); i += 4099) out.push_back(std::uint32_t(i));
    // Around each rounding point, for every sign and exponent, for both targets: exact ties with an even and an odd kept
    // bit, one float ulp either side of a tie, exact representables, and just below the next representable.
    Rng rng{12345};
    for (int half = 0; half < 2; ++half) {
        for (int sign = 0; sign < 2; ++sign) {
            for (int field = 0; field < 255; ++field) {
                const int p = kept_position(field, half != 0);
                for (int rep = 0; rep < 8; ++rep) {
                    const std::uint32_t upper = p >= 23 ? 0 : std::uint32_t(rng.next()) >> (p + 9) << p;
                    const std::uint32_t low_mask = p >= 24 ? 0x7fffffu : ((1u << p) - 1u);
                    const std::uint32_t tie = p >= 1 && p <= 23 ? (1u << (p - 1)) : 0;
                    const std::uint32_t kept_lsb = p <= 22 ? (1u << p) : 0;
                    for (std::uint32_t parity : {0u, kept_lsb}) {
                        const std::uint32_t base = (upper & ~kept_lsb) | parity;
                        for (std::uint32_t low : {0u, 1u, tie - 1u, tie, tie + 1u, low_mask}) {
                            out.push_back(bits_of(sign, field, base | (low & low_mask)));
                        }
                    }
                }
            }
        }
    }
    // Specials: zeros, float subnormals, inf, NaNs with payloads, the largest finite float, and the thresholds.
    const std::uint32_t specials[] = {
        0x00000000u,
        0x80000000u,
        0x00000001u,
        0x80000001u,
        0x007fffffu,
        0x00400000u,
        0x00800000u,
        0x7f7fffffu,
        0xff7fffffu,
        0x7f800000u,
        0xff800000u,
        0x7f800001u,
        0xff800001u,
        0x7fc00000u,
        0xffc00000u,
        0x7fffffffu,
        0xffffffffu,
        0x7fa00000u,
        0x7f800100u,
        // half: 65504 (max), 65519.99 (rounds to max), 65520 (tie: rounds to inf), 65536, just below/above
        0x477fe000u,
        0x477fefffu,
        0x477ff000u,
        0x477ff001u,
        0x47800000u,
        0xc77fefffu,
        0xc77ff000u,
        // half subnormals: 2^-24 (smallest), 2^-25 (tie to 0), just above, 2^-14 (smallest normal) and neighbours
        0x33800000u,
        0x33000000u,
        0x33000001u,
        0x32ffffffu,
        0x38800000u,
        0x387fffffu,
        0x387fe000u,
        0x387ff000u,
        0xb3000000u,
        0xb3000001u,
        // bfloat16: the largest finite (0x7f7f), the overflow tie 0x7f7f8000, just below and above
        0x7f7f0000u,
        0x7f7f7fffu,
        0x7f7f8000u,
        0x7f7f8001u,
        0xff7f8000u,
        // ties with even and odd kept bits around 1.0
        0x3f800000u,
        0x3f801000u,
        0x3f803000u,
        0x3f808000u,
        0x3f818000u,
        0x3f800fffu,
        0x3f801001u,
    };
    out.insert(out.end(), std::begin(specials), std::end(specials));
    return out;
}

// Operand triples (bit patterns) for the arithmetic check: random patterns of the 16-bit type, NaNs and infinities
// included, plus hand-picked cases where rounding twice (through float) would go wrong.
inline std::vector<std::uint16_t> operand_triples(std::size_t count, std::uint64_t seed) {
    Rng rng{seed};
    std::vector<std::uint16_t> out;
    for (std::size_t i = 0; i < count; ++i) {
        const std::uint64_t r = rng.next();
        out.push_back(std::uint16_t(r));
        out.push_back(std::uint16_t(r >> 16));
        out.push_back(std::uint16_t(r >> 32));
    }
    return out;
}

}  // namespace conv_samples
