// Arithmetic, comparisons and 2-wide operations on __half and __nv_bfloat16: correctly rounded results (what the
// GPU's add/mul/fma instructions give), checked against exact long double arithmetic rounded by the reference.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstdint>

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

template <class T>
std::uint16_t bits(T v) {
    return v.__x;
}
template <class T>
T from_bits(std::uint16_t b) {
    T t;
    t.__x = b;
    return t;
}

// A random bf16 with exponent in [-12, 12], so that a·b + c is exact in long double (64-bit significand).
std::uint16_t moderate_bf16(conv_samples::Rng& rng) {
    const std::uint64_t r = rng.next();
    const unsigned field = 127 - 12 + unsigned(r % 25);
    return std::uint16_t(((r >> 8) & 0x8000u) | (field << 7) | ((r >> 20) & 0x7fu));
}

template <class T>
void check_ops(wb::testkit::Half fmt, std::uint16_t ua, std::uint16_t ub, std::uint16_t uc, bool check_fma) {
    const T a = from_bits<T>(ua), b = from_bits<T>(ub), c = from_bits<T>(uc);
    const long double x = value(fmt, ua), y = value(fmt, ub), z = value(fmt, uc);
    INFO("a=0x" << std::hex << ua << " b=0x" << ub << " c=0x" << uc);
    REQUIRE(bits(__hadd(a, b)) == round_bits(fmt, x + y, Rounding::nearest_even));
    REQUIRE(bits(__hsub(a, b)) == round_bits(fmt, x - y, Rounding::nearest_even));
    REQUIRE(bits(__hmul(a, b)) == round_bits(fmt, x * y, Rounding::nearest_even));
    // Division and square root round a 64-bit long double result once more: harmless for 8- and 11-bit targets.
    REQUIRE(bits(__hdiv(a, b)) == round_bits(fmt, x / y, Rounding::nearest_even));
    REQUIRE(bits(hsqrt(a)) == round_bits(fmt, std::sqrt(x), Rounding::nearest_even));
    if (check_fma) REQUIRE(bits(__hfma(a, b, c)) == round_bits(fmt, x * y + z, Rounding::nearest_even));
    // Operators are the same functions.
    REQUIRE(bits(a + b) == bits(__hadd(a, b)));
    REQUIRE(bits(a * b) == bits(__hmul(a, b)));
    // Ordered comparisons are false with a NaN; != is the unordered one (true with a NaN), as in CUDA.
    REQUIRE(__hlt(a, b) == (x < y));
    REQUIRE(__hge(a, b) == (x >= y));
    REQUIRE(__heq(a, b) == (x == y));
    REQUIRE(__hne(a, b) == (x < y || x > y));
    REQUIRE((a != b) == !(x == y));
    REQUIRE(__hltu(a, b) == !(x >= y));
}

}  // namespace

TEST_CASE("half arithmetic is correctly rounded for random operands", "[arith][types][half]") {
    // Every half product and sum spans at most 64 bits, so long double arithmetic is exact for all patterns.
    const auto triples = conv_samples::operand_triples(150000, 7);
    for (std::size_t i = 0; i < triples.size(); i += 3)
        check_ops<__half>(Half::fp16, triples[i], triples[i + 1], triples[i + 2], true);
}

TEST_CASE("bf16 arithmetic is correctly rounded for random operands", "[arith][types][bf16]") {
    // Any patterns for add/sub/mul/div/sqrt (a long double rounding before the 8-bit one is harmless there) …
    const auto triples = conv_samples::operand_triples(150000, 8);
    for (std::size_t i = 0; i < triples.size(); i += 3)
        check_ops<__nv_bfloat16>(Half::bf16, triples[i], triples[i + 1], triples[i + 2], false);
    // … and fma on operands where a·b + c is exact in long double.
    conv_samples::Rng rng{9};
    for (int i = 0; i < 150000; ++i)
        check_ops<__nv_bfloat16>(Half::bf16, moderate_bf16(rng), moderate_bf16(rng), moderate_bf16(rng), true);
}

TEST_CASE("fma rounds once, not through float", "[arith][types][half]") {
    // Over a grid of a in [1, 2), b in [2^-12, 2^-10) and c = 1, rounding a·b + c to float first and then to half
    // differs from the single rounding in some cases; the emulator must give the single rounding everywhere.
    long naive_differs = 0;
    const __half one = __float2half(1.0f);
    for (unsigned ia = 0x3c00; ia < 0x4000; ++ia) {
        for (unsigned ib = 0x0c00; ib < 0x1400; ++ib) {
            const long double exact = value(Half::fp16, ia) * value(Half::fp16, ib) + 1.0L;
            const std::uint16_t want = round_bits(Half::fp16, exact, Rounding::nearest_even);
            const std::uint16_t got = bits(__hfma(from_bits<__half>(ia), from_bits<__half>(ib), one));
            REQUIRE(got == want);
            const float through_float =
                std::fma(__half2float(from_bits<__half>(ia)), __half2float(from_bits<__half>(ib)), 1.0f);
            if (bits(__float2half(through_float)) != want) ++naive_differs;
        }
    }
    REQUIRE(naive_differs > 0);  // the grid does contain double-rounding traps
}

TEST_CASE("NaN, infinity and signed zero in arithmetic", "[arith][types][half][bf16]") {
    const __half inf = __ushort_as_half(0x7c00), ninf = __ushort_as_half(0xfc00), nan = __ushort_as_half(0x7e01);
    const __half pz = __ushort_as_half(0x0000), nz = __ushort_as_half(0x8000), two = __float2half(2.0f);
    REQUIRE(__half_as_ushort(__hadd(inf, ninf)) == 0x7fffu);  // canonical NaN
    REQUIRE(__half_as_ushort(__hmul(nan, two)) == 0x7fffu);
    REQUIRE(__half_as_ushort(__hneg(nan)) == 0x7fffu);
    REQUIRE(__half_as_ushort(__habs(__ushort_as_half(0xfe00))) == 0x7fffu);
    REQUIRE(__half_as_ushort(__hneg(two)) == 0xc000u);
    REQUIRE(__half_as_ushort(__hadd(nz, nz)) == 0x8000u);
    REQUIRE(__half_as_ushort(__hadd(pz, nz)) == 0x0000u);
    REQUIRE(__half_as_ushort(__hsub(two, two)) == 0x0000u);
    REQUIRE(__half_as_ushort(__hmul(nz, two)) == 0x8000u);
    REQUIRE(__half_as_ushort(__float2half(65504.0f) + __float2half(32.0f)) == 0x7c00u);  // overflow to inf
    // max/min: the non-NaN operand wins; two NaNs give the canonical NaN; +0 > -0.
    REQUIRE(__half_as_ushort(__hmax(nan, two)) == 0x4000u);
    REQUIRE(__half_as_ushort(__hmin(two, nan)) == 0x4000u);
    REQUIRE(__half_as_ushort(__hmax(nan, nan)) == 0x7fffu);
    REQUIRE(__half_as_ushort(__hmax(nz, pz)) == 0x0000u);
    REQUIRE(__half_as_ushort(__hmax(pz, nz)) == 0x0000u);
    REQUIRE(__half_as_ushort(__hmin(pz, nz)) == 0x8000u);
    REQUIRE(__half_as_ushort(__hmax_nan(nan, two)) == 0x7fffu);
    REQUIRE(__half_as_ushort(__hadd_sat(two, two)) == 0x3c00u);
    REQUIRE(__half_as_ushort(__hadd_sat(nan, two)) == 0x0000u);
    REQUIRE(__hisnan(nan));
    REQUIRE(!__hisnan(inf));
    REQUIRE(__hisinf(inf) == 1);
    REQUIRE(__hisinf(ninf) == -1);
    REQUIRE(__hisinf(two) == 0);
    const __nv_bfloat16 binf = __ushort_as_bfloat16(0x7f80), bnan = __ushort_as_bfloat16(0xffc1);
    REQUIRE(__bfloat16_as_ushort(__hsub(binf, binf)) == 0x7fffu);
    REQUIRE(__bfloat16_as_ushort(__hadd(bnan, binf)) == 0x7fffu);
    REQUIRE(__hisnan(bnan));
    REQUIRE(__hisinf(-binf) == -1);
    REQUIRE(__bfloat16_as_ushort(__hmax(bnan, __float2bfloat16(-3.0f))) ==
            __bfloat16_as_ushort(__float2bfloat16(-3.0f)));
}

TEST_CASE("2-wide operations act lane by lane", "[arith][types][half][bf16]") {
    conv_samples::Rng rng{31};
    for (int i = 0; i < 20000; ++i) {
        const std::uint64_t r = rng.next();
        const __half2 a(__ushort_as_half(std::uint16_t(r)), __ushort_as_half(std::uint16_t(r >> 16)));
        const __half2 b(__ushort_as_half(std::uint16_t(r >> 32)), __ushort_as_half(std::uint16_t(r >> 48)));
        REQUIRE(__half_as_ushort(__hadd2(a, b).x) == __half_as_ushort(__hadd(a.x, b.x)));
        REQUIRE(__half_as_ushort(__hadd2(a, b).y) == __half_as_ushort(__hadd(a.y, b.y)));
        REQUIRE(__half_as_ushort(__hmul2(a, b).y) == __half_as_ushort(__hmul(a.y, b.y)));
        REQUIRE(__half_as_ushort(__hfma2(a, b, a).x) == __half_as_ushort(__hfma(a.x, b.x, a.x)));
        REQUIRE(__half_as_ushort(__hmax2(a, b).y) == __half_as_ushort(__hmax(a.y, b.y)));
        REQUIRE(__half_as_ushort(__h2div(a, b).x) == __half_as_ushort(__hdiv(a.x, b.x)));
        REQUIRE(__hbeq2(a, b) == (__heq(a.x, b.x) && __heq(a.y, b.y)));
        REQUIRE(__half2float(__hlt2(a, b).y) == (__hlt(a.y, b.y) ? 1.0f : 0.0f));
        const __nv_bfloat162 c(__ushort_as_bfloat16(std::uint16_t(r)), __ushort_as_bfloat16(std::uint16_t(r >> 16)));
        const __nv_bfloat162 d(__ushort_as_bfloat16(std::uint16_t(r >> 32)),
                               __ushort_as_bfloat16(std::uint16_t(r >> 48)));
        REQUIRE(__bfloat16_as_ushort(__hadd2(c, d).y) == __bfloat16_as_ushort(__hadd(c.y, d.y)));
        REQUIRE(__bfloat16_as_ushort(__hmul2(c, d).x) == __bfloat16_as_ushort(__hmul(c.x, d.x)));
        REQUIRE(__bfloat16_as_ushort(__hfma2(c, d, c).y) == __bfloat16_as_ushort(__hfma(c.y, d.y, c.y)));
        REQUIRE(__bfloat16_as_ushort((c * d).x) == __bfloat16_as_ushort(__hmul(c.x, d.x)));
        REQUIRE(__bfloat16_as_ushort(__hmin2(c, d).x) == __bfloat16_as_ushort(__hmin(c.x, d.x)));
    }
    // Packing and unpacking.
    const __half2 p = __floats2half2_rn(1.5f, -2.25f);
    REQUIRE(__low2float(p) == 1.5f);
    REQUIRE(__high2float(p) == -2.25f);
    REQUIRE(__half2float(__low2half(__lowhigh2highlow(p))) == -2.25f);
    const float2 f2 = __half22float2(__float22half2_rn(make_float2(0.1f, 3.0f)));
    REQUIRE(f2.x == __half2float(__float2half(0.1f)));
    REQUIRE(f2.y == 3.0f);
    REQUIRE(__half2float(__high2half(__halves2half2(__float2half(1.0f), __float2half(5.0f)))) == 5.0f);
    REQUIRE(__half2float(__half2half2(__float2half(7.0f)).y) == 7.0f);
    const __nv_bfloat162 q = __floats2bfloat162_rn(1.0f, 1.00390625f);  // second lane is a tie: rounds to 1.0
    REQUIRE(__bfloat16_as_ushort(q.y) == 0x3f80u);
    const float2 g = __bfloat1622float2(__float22bfloat162_rn(make_float2(-0.5f, 300.0f)));
    REQUIRE(g.x == -0.5f);
    REQUIRE(g.y == 300.0f);
    REQUIRE(__bfloat162float(__low2bfloat16(__halves2bfloat162(__float2bfloat16(2.0f), __float2bfloat16(3.0f)))) ==
            2.0f);
    REQUIRE(__bfloat162float(__high2bfloat16(__bfloat162bfloat162(__float2bfloat16(4.0f)))) == 4.0f);
    REQUIRE(__bfloat16_as_ushort(__ushort_as_bfloat16(0x1234)) == 0x1234u);
}

TEST_CASE("layouts match CUDA's", "[arith][types][half][bf16]") {
    static_assert(sizeof(__half) == 2 && alignof(__half) == 2, "__half");
    static_assert(sizeof(__half2) == 4 && alignof(__half2) == 4, "__half2");
    static_assert(sizeof(__nv_bfloat16) == 2 && alignof(__nv_bfloat16) == 2, "__nv_bfloat16");
    static_assert(sizeof(__nv_bfloat162) == 4 && alignof(__nv_bfloat162) == 4, "__nv_bfloat162");
    static_assert(std::is_trivially_copyable<__half>::value && std::is_trivially_default_constructible<__half>::value,
                  "__half must live in __shared__ arrays and 16-byte vectors");
    static_assert(std::is_trivially_copyable<__nv_bfloat162>::value, "__nv_bfloat162");
    struct alignas(16) vec8 {
        __nv_bfloat16 val[8];
    };
    static_assert(sizeof(vec8) == 16, "eight bf16 fill one 16-byte vector");
    SUCCEED();
}
