// Device math and bit intrinsics on the host: exact ones bit for bit, approximate-on-GPU ones to the exact value.
#include <emu/math.hpp>
#include <math_constants.h>

#include <cfloat>
#include <cmath>
#include <cstdint>

#include "../gpu/conversion_samples.hpp"
#include "workbook_catch.hpp"

TEST_CASE("bit reinterpretation", "[types][math]") {
    REQUIRE(__float_as_int(1.0f) == 0x3f800000);
    REQUIRE(__float_as_uint(-0.0f) == 0x80000000u);
    REQUIRE(__int_as_float(0x40490fdb) == 3.14159274101257324f);
    REQUIRE(std::isnan(__uint_as_float(0x7fc00000u)));
    REQUIRE(__double_as_longlong(1.0) == 0x3ff0000000000000ll);
    REQUIRE(__longlong_as_double(0x4000000000000000ll) == 2.0);
    REQUIRE(__hiloint2double(__double2hiint(-3.5), __double2loint(-3.5)) == -3.5);
    REQUIRE(std::isinf(CUDART_INF_F));
    REQUIRE(__float_as_uint(CUDART_NAN_F) == 0x7fffffffu);
    REQUIRE(CUDART_MAX_NORMAL_F == FLT_MAX);
}

TEST_CASE("integer intrinsics", "[types][math]") {
    REQUIRE(__popc(0u) == 0);
    REQUIRE(__popc(0xffffffffu) == 32);
    REQUIRE(__popcll(0x8000000000000001ull) == 2);
    REQUIRE(__clz(0) == 32);
    REQUIRE(__clz(1) == 31);
    REQUIRE(__clz(-1) == 0);
    REQUIRE(__clzll(1) == 63);
    REQUIRE(__ffs(0) == 0);
    REQUIRE(__ffs(0x18) == 4);
    REQUIRE(__ffsll(1ll << 40) == 41);
    REQUIRE(__brev(1u) == 0x80000000u);
    REQUIRE(__brev(0x12345678u) == 0x1e6a2c48u);
    REQUIRE(__brevll(1ull) == 0x8000000000000000ull);
    REQUIRE(__mul24(0x00ffffff, 2) == -2);  // bit 23 is the sign of a 24-bit operand
    REQUIRE(__mul24(0x7f000003, 5) == 15);  // bits above 23 are ignored
    REQUIRE(__umul24(0xff000002u, 3u) == 6u);
    REQUIRE(__umulhi(0xffffffffu, 0xffffffffu) == 0xfffffffeu);
    REQUIRE(__mulhi(-1, 1) == -1);
    REQUIRE(__umul64hi(1ull << 63, 4ull) == 2ull);
    REQUIRE(__sad(3, -5, 10u) == 18u);
    REQUIRE(__byte_perm(0x33221100u, 0x77665544u, 0x4321u) == 0x44332211u);
    REQUIRE(__funnelshift_l(0x80000000u, 0x1u, 1u) == 0x3u);
    REQUIRE(__funnelshift_r(0x2u, 0x1u, 1u) == 0x80000001u);
    REQUIRE(__funnelshift_lc(0u, 5u, 40u) == 0u);
    REQUIRE(__hadd(7, 8) == 7);
    REQUIRE(__rhadd(7, 8) == 8);
}

TEST_CASE("min and max overloads as device code uses them", "[types][math]") {
    REQUIRE(min(3, -4) == -4);
    REQUIRE(max(3u, 4u) == 4u);
    REQUIRE(min(2.5f, 1.5f) == 1.5f);
    REQUIRE(max(2.5, 7.0) == 7.0);
    REQUIRE(max(NAN, 1.0f) == 1.0f);  // fmaxf: the NaN loses
    REQUIRE(min(-1, 1u) == 1u);       // mixed signedness compares as unsigned, as CUDA's overload does
    REQUIRE(max(5ll, 6ll) == 6ll);
    REQUIRE(umin(3u, 9u) == 3u);
    REQUIRE(fmaxf(2.0f, 3.0f) == 3.0f);
}

TEST_CASE("fast-math functions give the exact values", "[types][math]") {
    REQUIRE(rsqrtf(4.0f) == 0.5f);
    REQUIRE(rsqrtf(0.0f) == INFINITY);
    REQUIRE(std::isnan(rsqrtf(-1.0f)));
    REQUIRE(rsqrt(16.0) == 0.25);
    conv_samples::Rng rng{5};
    for (int i = 0; i < 100000; ++i) {
        const float x = float(rng.next() % 1000000) / 997.0f + 1e-3f;
        // Within half an ulp plus the rare double-rounding case: compare with the correctly rounded double value.
        const double exact = 1.0 / std::sqrt(double(x));
        REQUIRE(std::fabs(double(rsqrtf(x)) - exact) <= 0.5 * std::ldexp(1.0, std::ilogb(float(exact)) - 23) * 1.0001);
        REQUIRE(__fdividef(x, 3.0f) == x / 3.0f);
        REQUIRE(__expf(x / 100.0f) == std::exp(x / 100.0f));
        REQUIRE(__logf(x) == std::log(x));
        REQUIRE(__powf(x, 0.5f) == std::pow(x, 0.5f));
    }
    REQUIRE(__saturatef(-1.0f) == 0.0f);
    REQUIRE(__saturatef(2.0f) == 1.0f);
    REQUIRE(__saturatef(0.25f) == 0.25f);
    REQUIRE(__saturatef(NAN) == 0.0f);
    REQUIRE(exp2f(3.0f) == 8.0f);
    REQUIRE(__frcp_rn(4.0f) == 0.25f);
    REQUIRE(__fsqrt_rn(2.0f) == std::sqrt(2.0f));
    REQUIRE(__fmaf_rn(2.0f, 3.0f, 1.0f) == 7.0f);
}

TEST_CASE("directed-rounding arithmetic", "[types][math]") {
    const float one = 1.0f, tiny = std::ldexp(1.0f, -30);
    REQUIRE(__fadd_rn(one, tiny) == 1.0f);
    REQUIRE(__fadd_rz(one, tiny) == 1.0f);
    REQUIRE(__fadd_rd(one, tiny) == 1.0f);
    REQUIRE(__fadd_ru(one, tiny) == std::nextafter(1.0f, 2.0f));
    REQUIRE(__fadd_rz(-one, -tiny) == -1.0f);
    REQUIRE(__fadd_rd(-one, -tiny) == std::nextafter(-1.0f, -2.0f));
    REQUIRE(__fsub_ru(one, tiny) == 1.0f);
    REQUIRE(__fsub_rz(one, tiny) == std::nextafter(1.0f, 0.0f));
    REQUIRE(std::signbit(__fadd_rd(one, -one)));  // exact zero is -0 when rounding down
    REQUIRE(!std::signbit(__fadd_rn(one, -one)));
    REQUIRE(__fadd_rz(FLT_MAX, FLT_MAX) == FLT_MAX);  // overflow stops at the largest finite value
    REQUIRE(std::isinf(__fadd_ru(FLT_MAX, FLT_MAX)));
    const float third = 1.0f / 3.0f;
    REQUIRE(__fmul_rd(third, 3.0f) <= 1.0f);
    REQUIRE(__fmul_ru(third, 3.0f) >= 1.0f);
    REQUIRE(__fmul_ru(third, 3.0f) == std::nextafter(__fmul_rd(third, 3.0f), 2.0f));
    conv_samples::Rng rng{77};
    for (int i = 0; i < 200000; ++i) {
        const float a = __uint_as_float(std::uint32_t(rng.next()) & 0xbfffffffu);  // finite, |a| < 2
        const float b = __uint_as_float(std::uint32_t(rng.next()) & 0xbfffffffu);
        // rd <= rn <= ru, one ulp apart at most, and rz is one of rd/ru.
        const float lo = __fadd_rd(a, b), hi = __fadd_ru(a, b), z = __fadd_rz(a, b), n = a + b;
        REQUIRE(lo <= n);
        REQUIRE(n <= hi);
        REQUIRE((lo == hi || std::nextafter(lo, INFINITY) == hi));
        REQUIRE((z == lo || z == hi));
        const float ml = __fmul_rd(a, b), mh = __fmul_ru(a, b);
        REQUIRE((double)ml <= double(a) * double(b));
        REQUIRE((double)mh >= double(a) * double(b));
    }
    REQUIRE(__float2int_rn(2.5f) == 2);
    REQUIRE(__float2int_rn(-3.5f) == -4);
    REQUIRE(__float2int_rz(-3.9f) == -3);
    REQUIRE(__float2int_rd(-3.1f) == -4);
    REQUIRE(__float2int_ru(3.1f) == 4);
    REQUIRE(__float2int_rn(3e9f) == INT32_MAX);  // saturating, as cvt.rni.s32.f32
    REQUIRE(__float2int_rn(NAN) == 0);
    REQUIRE(__float2uint_rn(-1.0f) == 0u);
}
