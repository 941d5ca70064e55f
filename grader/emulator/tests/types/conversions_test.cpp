// Conversions between float and the 16-bit types, bit for bit against CUDA's rules.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "../gpu/conversion_samples.hpp"
#include "testkit/half_bits.hpp"
#include "workbook_catch.hpp"

namespace {

// The test oracle of both formats (grader/hidden-tests/testkit/half_bits.hpp), which the judges use too.
using wb::testkit::Half;
using wb::testkit::round_bits;
using wb::testkit::Rounding;
// A pattern's value as the oracle decodes it (exact in double, so in long double too).
long double value(Half t, std::uint16_t b) { return wb::testkit::from_bits(t, b); }

float float_of(std::uint32_t bits) {
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}
std::uint32_t bits_of(float f) {
    std::uint32_t b;
    std::memcpy(&b, &f, sizeof b);
    return b;
}
bool is_nan16(std::uint16_t b, std::uint16_t inf) { return (b & 0x7fffu) > inf; }

// Reports the first mismatching input, so a failure says which value and which mode.
struct FirstMismatch {
    std::string what;
    long count = 0;
    void add(const char* name, std::uint32_t input, unsigned got, unsigned want) {
        if (count++ == 0) {
            char buf[160];
            std::snprintf(buf, sizeof buf, "%s(0x%08x): got 0x%04x, want 0x%04x", name, input, got, want);
            what = buf;
        }
    }
};

}  // namespace

TEST_CASE("every bf16 pattern converts to float exactly and back", "[conversion][types][bf16]") {
    long checked = 0;
    for (std::uint32_t b = 0; b < 0x10000u; ++b) {
        const __nv_bfloat16 x = __ushort_as_bfloat16(std::uint16_t(b));
        const float f = __bfloat162float(x);
        // bf16 -> float is a shift: the float's upper half is the pattern, NaN payload and sign included.
        REQUIRE(bits_of(f) == (b << 16));
        const std::uint16_t back = __bfloat16_as_ushort(__float2bfloat16(f));
        if (is_nan16(std::uint16_t(b), 0x7f80)) {
            REQUIRE(back == 0x7fffu);  // CUDA turns every NaN into the canonical NaN
        } else {
            REQUIRE(back == b);
            // Exact values are fixed points of every rounding mode.
            REQUIRE(__bfloat16_as_ushort(__float2bfloat16_rz(f)) == b);
            REQUIRE(__bfloat16_as_ushort(__float2bfloat16_rd(f)) == b);
            REQUIRE(__bfloat16_as_ushort(__float2bfloat16_ru(f)) == b);
        }
        ++checked;
    }
    REQUIRE(checked == 65536);
}

TEST_CASE("every half pattern converts to float exactly and back", "[conversion][types][half]") {
    for (std::uint32_t b = 0; b < 0x10000u; ++b) {
        const __half x = __ushort_as_half(std::uint16_t(b));
        const float f = __half2float(x);
        if (is_nan16(std::uint16_t(b), 0x7c00)) {
            REQUIRE(bits_of(f) == 0x7fffffffu);  // CUDA's half -> float gives the canonical float NaN
            REQUIRE(__half_as_ushort(__float2half(f)) == 0x7fffu);
            continue;
        }
        REQUIRE((long double)f == value(Half::fp16, std::uint16_t(b)));
        REQUIRE(std::signbit(f) == ((b & 0x8000u) != 0));
        REQUIRE(__half_as_ushort(__float2half(f)) == b);
        REQUIRE(__half_as_ushort(__float2half_rz(f)) == b);
        REQUIRE(__half_as_ushort(__float2half_rd(f)) == b);
        REQUIRE(__half_as_ushort(__float2half_ru(f)) == b);
    }
}

TEST_CASE("float to bf16 and half round as the reference does, in all four modes", "[conversion][types][bf16][half]") {
    const std::vector<std::uint32_t> inputs = conv_samples::float_samples();
    REQUIRE(inputs.size() > 1000000);
    FirstMismatch bad;
    for (const std::uint32_t in : inputs) {
        const float f = float_of(in);
        const long double x = f;
        struct Case {
            const char* name;
            unsigned got;
            wb::testkit::Half fmt;
            Rounding mode;
        };
        const Case cases[] = {
            {"__float2bfloat16", __bfloat16_as_ushort(__float2bfloat16(f)), Half::bf16, Rounding::nearest_even},
            {"__float2bfloat16_rn", __bfloat16_as_ushort(__float2bfloat16_rn(f)), Half::bf16, Rounding::nearest_even},
            {"__float2bfloat16_rz", __bfloat16_as_ushort(__float2bfloat16_rz(f)), Half::bf16, Rounding::toward_zero},
            {"__float2bfloat16_rd", __bfloat16_as_ushort(__float2bfloat16_rd(f)), Half::bf16, Rounding::down},
            {"__float2bfloat16_ru", __bfloat16_as_ushort(__float2bfloat16_ru(f)), Half::bf16, Rounding::up},
            {"__float2half", __half_as_ushort(__float2half(f)), Half::fp16, Rounding::nearest_even},
            {"__float2half_rn", __half_as_ushort(__float2half_rn(f)), Half::fp16, Rounding::nearest_even},
            {"__float2half_rz", __half_as_ushort(__float2half_rz(f)), Half::fp16, Rounding::toward_zero},
            {"__float2half_rd", __half_as_ushort(__float2half_rd(f)), Half::fp16, Rounding::down},
            {"__float2half_ru", __half_as_ushort(__float2half_ru(f)), Half::fp16, Rounding::up},
        };
        for (const Case& c : cases) {
            const unsigned want = round_bits(c.fmt, x, c.mode);
            if (c.got != want) bad.add(c.name, in, c.got, want);
        }
    }
    INFO(bad.what);
    REQUIRE(bad.count == 0);
}

TEST_CASE("conversion special values, spelled out", "[conversion][types][bf16][half]") {
    // Round to nearest even at the half overflow threshold: 65519 -> 65504, 65520 (a tie) -> inf.
    REQUIRE(__half_as_ushort(__float2half(65504.0f)) == 0x7bffu);
    REQUIRE(__half_as_ushort(__float2half(65519.0f)) == 0x7bffu);
    REQUIRE(__half_as_ushort(__float2half(65520.0f)) == 0x7c00u);
    REQUIRE(__half_as_ushort(__float2half(-65520.0f)) == 0xfc00u);
    REQUIRE(__half_as_ushort(__float2half_rz(1e9f)) == 0x7bffu);  // toward zero never reaches inf
    REQUIRE(__half_as_ushort(__float2half_rd(1e9f)) == 0x7bffu);
    REQUIRE(__half_as_ushort(__float2half_ru(-1e9f)) == 0xfbffu);
    REQUIRE(__half_as_ushort(__float2half_ru(1e9f)) == 0x7c00u);
    // Half subnormals: 2^-24 is the smallest; 2^-25 is a tie between 0 and it and goes to even (0).
    REQUIRE(__half_as_ushort(__float2half(5.9604645e-08f)) == 0x0001u);
    REQUIRE(__half_as_ushort(__float2half(std::ldexp(1.0f, -25))) == 0x0000u);
    REQUIRE(__half_as_ushort(__float2half(std::nextafter(std::ldexp(1.0f, -25), 1.0f))) == 0x0001u);
    REQUIRE(__half_as_ushort(__float2half(-std::ldexp(3.0f, -25))) == 0x8002u);  // 1.5 ulp -> 2 (even)
    REQUIRE(__half_as_ushort(__float2half(-std::ldexp(3.0f, -26))) == 0x8001u);  // 0.75 ulp -> 1
    REQUIRE(__half_as_ushort(__float2half(-0.0f)) == 0x8000u);
    // bf16: ties to even at 1 + 2^-8 (-> 1.0) and 1 + 3·2^-8 (-> 1 + 2^-6).
    REQUIRE(__bfloat16_as_ushort(__float2bfloat16(1.00390625f)) == 0x3f80u);
    REQUIRE(__bfloat16_as_ushort(__float2bfloat16(1.01171875f)) == 0x3f82u);
    REQUIRE(__bfloat16_as_ushort(__float2bfloat16(float_of(0x7f7f7fffu))) == 0x7f7fu);
    REQUIRE(__bfloat16_as_ushort(__float2bfloat16(float_of(0x7f7f8000u))) == 0x7f80u);  // tie at the top: inf
    REQUIRE(__bfloat16_as_ushort(__float2bfloat16_rz(float_of(0x7f7fffffu))) == 0x7f7fu);
    // NaN: canonical 0x7fff whatever the sign and payload.
    for (std::uint32_t nan : {0x7fc00000u, 0xffc00000u, 0x7f800001u, 0xff800001u, 0x7fffffffu}) {
        REQUIRE(__bfloat16_as_ushort(__float2bfloat16(float_of(nan))) == 0x7fffu);
        REQUIRE(__half_as_ushort(__float2half(float_of(nan))) == 0x7fffu);
        REQUIRE(__half_as_ushort(__float2half_rz(float_of(nan))) == 0x7fffu);
    }
    REQUIRE(__bfloat16_as_ushort(__float2bfloat16(INFINITY)) == 0x7f80u);
    REQUIRE(__bfloat16_as_ushort(__float2bfloat16(-INFINITY)) == 0xff80u);
    REQUIRE(__half_as_ushort(__float2half(-INFINITY)) == 0xfc00u);
}

TEST_CASE("double converts with a single rounding", "[conversion][types][bf16][half]") {
    // 1 + 2^-11 + 2^-40 rounds up in half; rounding through float first would land on the tie and go to 1.0.
    const double just_above_tie = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
    REQUIRE(__half_as_ushort(__double2half(just_above_tie)) == 0x3c01u);
    REQUIRE(__half_as_ushort(__float2half(float(just_above_tie))) == 0x3c00u);
    const double bf_above_tie = 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40);
    REQUIRE(__bfloat16_as_ushort(__double2bfloat16(bf_above_tie)) == 0x3f81u);
    conv_samples::Rng rng{99};
    for (int i = 0; i < 200000; ++i) {
        const std::uint64_t r = rng.next();
        double d;
        std::memcpy(&d, &r, sizeof d);
        if (std::isnan(d)) continue;
        const long double x = d;
        REQUIRE(__half_as_ushort(__double2half(d)) == round_bits(Half::fp16, x, Rounding::nearest_even));
        REQUIRE(__bfloat16_as_ushort(__double2bfloat16(d)) == round_bits(Half::bf16, x, Rounding::nearest_even));
        // Small doubles, where the interesting roundings are.
        const double s = std::ldexp(double(r >> 11) / 9007199254740992.0, int(r % 40) - 26);
        REQUIRE(__half_as_ushort(__double2half(s)) == round_bits(Half::fp16, s, Rounding::nearest_even));
        REQUIRE(__bfloat16_as_ushort(__double2bfloat16(s)) == round_bits(Half::bf16, s, Rounding::nearest_even));
    }
}

TEST_CASE("integer conversions round and saturate as CUDA's", "[conversion][types][bf16][half]") {
    REQUIRE(__half2float(__int2half_rn(2049)) == 2048.0f);  // tie -> even
    REQUIRE(__half2float(__int2half_rn(2051)) == 2052.0f);
    REQUIRE(__half2float(__int2half_rz(2051)) == 2050.0f);
    REQUIRE(__half2float(__int2half_rd(-2051)) == -2052.0f);
    REQUIRE(__half2float(__int2half_ru(-2051)) == -2050.0f);
    REQUIRE(__half_as_ushort(__int2half_rn(70000)) == 0x7c00u);
    REQUIRE(__half_as_ushort(__ll2half_rn(-(1ll << 40))) == 0xfc00u);
    REQUIRE(__bfloat162float(__int2bfloat16_rn(257)) == 256.0f);
    REQUIRE(__bfloat162float(__uint2bfloat16_rn(0xffffffffu)) == 4294967296.0f);
    REQUIRE(__bfloat162float(__ull2bfloat16_rz(0xffffffffffffffffull)) == 18374686479671623680.0f);
    REQUIRE(__half2int_rn(__float2half(2.5f)) == 2);
    REQUIRE(__half2int_rn(__float2half(3.5f)) == 4);
    REQUIRE(__half2int_rz(__float2half(-3.75f)) == -3);
    REQUIRE(__half2int_rd(__float2half(-3.25f)) == -4);
    REQUIRE(__half2int_ru(__float2half(3.25f)) == 4);
    REQUIRE(__half2short_rn(__float2half(65504.0f)) == 32767);  // saturates
    REQUIRE(__half2uint_rn(__float2half(-5.0f)) == 0u);
    REQUIRE(__half2int_rn(__ushort_as_half(0x7e00)) == 0);          // NaN -> 0
    REQUIRE(__half2int_rn(__ushort_as_half(0xfc00)) == INT32_MIN);  // -inf saturates
    REQUIRE(__bfloat162int_rz(__float2bfloat16(1e10f)) == INT32_MAX);
    REQUIRE(__bfloat162ll_rn(__float2bfloat16(-1e30f)) == INT64_MIN);
    // The implicit conversions go the same ways: integers in round-to-nearest, out of the type toward zero.
    const __half h = 7;
    const int back = h;
    const __nv_bfloat16 b = -2.75f;
    const int bi = b;
    REQUIRE(__half2float(h) == 7.0f);
    REQUIRE(back == 7);
    REQUIRE(bi == -2);
}
