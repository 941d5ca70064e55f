// CUDA's SIMD-within-a-word intrinsics (__vadd2, __vcmpgtu4, __vsadu4, …: CUDA Math API, "SIMD Intrinsics"): a 32-bit
// word holds two 16-bit or four 8-bit lanes, and each operation works lane by lane as the Math API documents it:
// wrap-around or saturated (ss: signed, us: unsigned) sums and differences, absolute values and differences, rounded
// averages ((a + b + 1) >> 1) and truncated halved sums (__vhaddu), minimum and maximum, comparisons as all-ones lanes
// (__vcmp*) or as 1 (__vset*), and sums of absolute differences (__vsad*, a scalar). Exact integer arithmetic, the same
// as a GPU's.
#pragma once
#include <cstdint>

namespace emu::simd {

template <int BITS>
struct Lanes {
    static constexpr int count = 32 / BITS;
    static constexpr std::uint32_t mask = (1u << BITS) - 1;
    static constexpr std::int32_t smax = (1 << (BITS - 1)) - 1, smin = -(1 << (BITS - 1));
    static std::uint32_t u(std::uint32_t w, int i) { return (w >> (i * BITS)) & mask; }
    static std::int32_t s(std::uint32_t w, int i) {
        const std::int32_t v = static_cast<std::int32_t>(u(w, i));
        return v > smax ? v - (1 << BITS) : v;
    }
    static std::int32_t sat_s(std::int64_t v) {
        return v > smax ? smax : (v < smin ? smin : static_cast<std::int32_t>(v));
    }
    static std::uint32_t sat_u(std::int64_t v) {
        return v > static_cast<std::int64_t>(mask) ? mask : (v < 0 ? 0u : static_cast<std::uint32_t>(v));
    }
    // The word whose lane i is f(i) (the low BITS bits of it).
    template <class F>
    static std::uint32_t make(F f) {
        std::uint32_t w = 0;
        for (int i = 0; i < count; ++i) w |= (static_cast<std::uint32_t>(f(i)) & mask) << (i * BITS);
        return w;
    }
};

}  // namespace emu::simd

#define EMU_SIMD_BINARY(NAME, BITS, EXPR)                                       \
    inline unsigned int NAME(unsigned int a, unsigned int b) {                  \
        using L = emu::simd::Lanes<BITS>;                                       \
        return L::make([&](int i) { return static_cast<std::int64_t>(EXPR); }); \
    }
#define EMU_SIMD_UNARY(NAME, BITS, EXPR)                                        \
    inline unsigned int NAME(unsigned int a) {                                  \
        using L = emu::simd::Lanes<BITS>;                                       \
        return L::make([&](int i) { return static_cast<std::int64_t>(EXPR); }); \
    }
// Both widths of one operation: NAME2 on halfwords, NAME4 on bytes.
#define EMU_SIMD_BINARY_24(NAME, EXPR) EMU_SIMD_BINARY(NAME##2, 16, EXPR) EMU_SIMD_BINARY(NAME##4, 8, EXPR)
#define EMU_SIMD_UNARY_24(NAME, EXPR) EMU_SIMD_UNARY(NAME##2, 16, EXPR) EMU_SIMD_UNARY(NAME##4, 8, EXPR)

#define EMU_SIMD_US(x) static_cast<std::int64_t>(L::u(x, i))
#define EMU_SIMD_SS(x) static_cast<std::int64_t>(L::s(x, i))
EMU_SIMD_BINARY_24(__vadd, EMU_SIMD_US(a) + EMU_SIMD_US(b))
EMU_SIMD_BINARY_24(__vsub, EMU_SIMD_US(a) - EMU_SIMD_US(b))
EMU_SIMD_BINARY_24(__vaddss, L::sat_s(EMU_SIMD_SS(a) + EMU_SIMD_SS(b)))
EMU_SIMD_BINARY_24(__vsubss, L::sat_s(EMU_SIMD_SS(a) - EMU_SIMD_SS(b)))
EMU_SIMD_BINARY_24(__vaddus, L::sat_u(EMU_SIMD_US(a) + EMU_SIMD_US(b)))
EMU_SIMD_BINARY_24(__vsubus, L::sat_u(EMU_SIMD_US(a) - EMU_SIMD_US(b)))
EMU_SIMD_BINARY_24(__vabsdiffs,
                   EMU_SIMD_SS(a) > EMU_SIMD_SS(b) ? EMU_SIMD_SS(a) - EMU_SIMD_SS(b) : EMU_SIMD_SS(b) - EMU_SIMD_SS(a))
EMU_SIMD_BINARY_24(__vabsdiffu,
                   EMU_SIMD_US(a) > EMU_SIMD_US(b) ? EMU_SIMD_US(a) - EMU_SIMD_US(b) : EMU_SIMD_US(b) - EMU_SIMD_US(a))
EMU_SIMD_BINARY_24(__vavgs, (EMU_SIMD_SS(a) + EMU_SIMD_SS(b) + 1) >> 1)
EMU_SIMD_BINARY_24(__vavgu, (EMU_SIMD_US(a) + EMU_SIMD_US(b) + 1) >> 1)
EMU_SIMD_BINARY_24(__vhaddu, (EMU_SIMD_US(a) + EMU_SIMD_US(b)) >> 1)
EMU_SIMD_BINARY_24(__vmaxs, EMU_SIMD_SS(a) > EMU_SIMD_SS(b) ? EMU_SIMD_SS(a) : EMU_SIMD_SS(b))
EMU_SIMD_BINARY_24(__vmaxu, EMU_SIMD_US(a) > EMU_SIMD_US(b) ? EMU_SIMD_US(a) : EMU_SIMD_US(b))
EMU_SIMD_BINARY_24(__vmins, EMU_SIMD_SS(a) < EMU_SIMD_SS(b) ? EMU_SIMD_SS(a) : EMU_SIMD_SS(b))
EMU_SIMD_BINARY_24(__vminu, EMU_SIMD_US(a) < EMU_SIMD_US(b) ? EMU_SIMD_US(a) : EMU_SIMD_US(b))
// Comparisons: __vcmp* gives an all-ones lane where true, __vset* gives 1.
#define EMU_SIMD_COMPARE(SUFFIX, COND) \
    EMU_SIMD_BINARY_24(__vcmp##SUFFIX, (COND) ? L::mask : 0) EMU_SIMD_BINARY_24(__vset##SUFFIX, (COND) ? 1 : 0)
EMU_SIMD_COMPARE(eq, EMU_SIMD_US(a) == EMU_SIMD_US(b))
EMU_SIMD_COMPARE(ne, EMU_SIMD_US(a) != EMU_SIMD_US(b))
EMU_SIMD_COMPARE(ges, EMU_SIMD_SS(a) >= EMU_SIMD_SS(b))
EMU_SIMD_COMPARE(geu, EMU_SIMD_US(a) >= EMU_SIMD_US(b))
EMU_SIMD_COMPARE(gts, EMU_SIMD_SS(a) > EMU_SIMD_SS(b))
EMU_SIMD_COMPARE(gtu, EMU_SIMD_US(a) > EMU_SIMD_US(b))
EMU_SIMD_COMPARE(les, EMU_SIMD_SS(a) <= EMU_SIMD_SS(b))
EMU_SIMD_COMPARE(leu, EMU_SIMD_US(a) <= EMU_SIMD_US(b))
EMU_SIMD_COMPARE(lts, EMU_SIMD_SS(a) < EMU_SIMD_SS(b))
EMU_SIMD_COMPARE(ltu, EMU_SIMD_US(a) < EMU_SIMD_US(b))
EMU_SIMD_UNARY_24(__vabs, EMU_SIMD_SS(a) < 0 ? -EMU_SIMD_SS(a) : EMU_SIMD_SS(a))
EMU_SIMD_UNARY_24(__vabsss, L::sat_s(EMU_SIMD_SS(a) < 0 ? -EMU_SIMD_SS(a) : EMU_SIMD_SS(a)))
EMU_SIMD_UNARY_24(__vneg, -EMU_SIMD_SS(a))
EMU_SIMD_UNARY_24(__vnegss, L::sat_s(-EMU_SIMD_SS(a)))
#undef EMU_SIMD_COMPARE
#undef EMU_SIMD_US
#undef EMU_SIMD_SS
#undef EMU_SIMD_BINARY_24
#undef EMU_SIMD_UNARY_24
#undef EMU_SIMD_BINARY
#undef EMU_SIMD_UNARY

// Sums of absolute differences over the lanes: a scalar.
inline unsigned int __vsadu2(unsigned int a, unsigned int b) {
    return __vabsdiffu2(a, b) % 65536u + (__vabsdiffu2(a, b) >> 16);
}
inline unsigned int __vsads2(unsigned int a, unsigned int b) {
    return __vabsdiffs2(a, b) % 65536u + (__vabsdiffs2(a, b) >> 16);
}
inline unsigned int __vsadu4(unsigned int a, unsigned int b) {
    const unsigned d = __vabsdiffu4(a, b);
    return (d & 0xff) + ((d >> 8) & 0xff) + ((d >> 16) & 0xff) + (d >> 24);
}
inline unsigned int __vsads4(unsigned int a, unsigned int b) {
    const unsigned d = __vabsdiffs4(a, b);
    return (d & 0xff) + ((d >> 8) & 0xff) + ((d >> 16) & 0xff) + (d >> 24);
}
