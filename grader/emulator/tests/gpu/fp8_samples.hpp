// The inputs on which fp8 conversions are checked: by the emulator's own tests (against an independent reference)
// and on a real GPU by fp8_gpu.cu (whose output compare_fp8.cpp checks against the emulator). Deterministic.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

namespace fp8_samples {

// Floats: every combination of sign, exponent and the top 7 fraction bits (fp8 keeps at most 3, so every rounding
// point, tie and overflow edge of both formats is among them), each with low bits that make an exact tie, one ulp
// either side of it, and a sticky bit; plus NaNs with payloads and infinities.
inline std::vector<std::uint32_t> floats() {
    std::vector<std::uint32_t> out;
    for (std::uint32_t hi = 0; hi < 0x10000u; ++hi)
        for (std::uint32_t lo : {0x0000u, 0x0001u, 0x7fffu, 0x8000u, 0x8001u, 0xffffu}) out.push_back(hi << 16 | lo);
    return out;
}

// Doubles: the same structure at double precision for the binades fp8 can reach (and a margin each side), with a
// 29-bit sticky part below the float-width fraction, so a double conversion that rounded through float would show.
inline std::vector<std::uint64_t> doubles() {
    std::vector<std::uint64_t> out;
    for (std::uint64_t sign = 0; sign < 2; ++sign)
        for (int e = -30; e <= 20; ++e)
            for (std::uint64_t top = 0; top < 128; ++top)
                for (std::uint64_t low : {0ull, 1ull, (1ull << 45) - 1, 1ull << 45, (1ull << 45) + 1, (1ull << 29)}) {
                    const std::uint64_t field = static_cast<std::uint64_t>(e + 1023);
                    out.push_back(sign << 63 | field << 52 | top << 45 | (low & ((1ull << 46) - 1)));
                }
    const std::uint64_t specials[] = {0x0000000000000000ull, 0x8000000000000000ull, 0x7ff0000000000000ull,
                                      0xfff0000000000000ull, 0x7ff8000000000000ull, 0xfff8000000000000ull,
                                      0x7ff4000000000000ull, 0xfff4000000000000ull, 0x7ff0000000000001ull,
                                      0x0000000000000001ull, 0x7fefffffffffffffull, 0x3ff0000000000000ull};
    for (std::uint64_t s : specials) out.push_back(s);
    return out;
}

}  // namespace fp8_samples
