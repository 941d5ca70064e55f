// cuda_fp8.h: E4M3 and E5M2 conversions bit for bit against CUDA's rules, exhaustively over every fp8, half and
// bfloat16 pattern and over every float rounding class (tests/gpu/fp8_samples.hpp), with an independent reference.
#include <cuda_fp8.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "../gpu/fp8_samples.hpp"
#include "workbook_catch.hpp"

namespace {

// Reference, written differently from emu/fp8_round.hpp: long double scaling (exact for every input here), the tie
// found by comparing the discarded fraction with one half, the result encoded from its value.
struct RefFormat {
    int mant, emin;
    long double max_finite;
    std::uint8_t max_bits, overflow_bits;
    bool e5m2;
};
const RefFormat kRefE4M3{3, -6, 448.0L, 0x7e, 0x7f, false};
const RefFormat kRefE5M2{2, -14, 57344.0L, 0x7b, 0x7c, true};

std::uint8_t ref_encode(const RefFormat& f, long double r) {
    if (r < std::ldexp(1.0L, f.emin)) return static_cast<std::uint8_t>(std::ldexp(r, f.mant - f.emin));
    const int e = std::ilogb(r);
    const long double frac = std::ldexp(r, f.mant - e) - std::ldexp(1.0L, f.mant);
    const int bias = f.e5m2 ? 15 : 7;
    return static_cast<std::uint8_t>(((e + bias) << f.mant) + static_cast<int>(frac));
}

// Finite or infinite (not NaN) x.
std::uint8_t ref_round(const RefFormat& f, long double x, bool sat) {
    const std::uint8_t sign = std::signbit(x) ? 0x80 : 0;
    const long double a = std::fabs(x);
    if (std::isinf(a)) return sign | (sat ? f.max_bits : f.overflow_bits);
    if (a == 0) return sign;
    int e = std::ilogb(a);
    if (e < f.emin) e = f.emin;
    const long double ulp = std::ldexp(1.0L, e - f.mant);
    const long double q = a / ulp;
    long double k = std::floor(q);
    const long double rest = q - k;
    if (rest > 0.5L || (rest == 0.5L && std::fmod(k, 2.0L) == 1.0L)) k += 1;
    const long double r = k * ulp;
    if (r > f.max_finite) return sign | (sat ? f.max_bits : f.overflow_bits);
    return sign | ref_encode(f, r);
}

long double ref_value(const RefFormat& f, std::uint8_t b) {
    const int field = (b & 0x7f) >> f.mant;
    const int frac = b & ((1 << f.mant) - 1);
    const int bias = f.e5m2 ? 15 : 7;
    const long double m = field == 0
                              ? std::ldexp(static_cast<long double>(frac), f.emin - f.mant)
                              : std::ldexp(1.0L + std::ldexp(static_cast<long double>(frac), -f.mant), field - bias);
    return (b & 0x80) ? -m : m;
}
bool ref_is_nan(const RefFormat& f, std::uint8_t b) { return f.e5m2 ? (b & 0x7f) > 0x7c : (b & 0x7f) == 0x7f; }

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

struct FirstMismatch {
    std::string what;
    long count = 0;
    void add(const char* name, unsigned long long input, unsigned got, unsigned want) {
        if (count++ == 0) {
            char buf[200];
            std::snprintf(buf, sizeof buf, "%s(0x%llx): got 0x%02x, want 0x%02x", name, input, got, want);
            what = buf;
        }
    }
};

struct Kind {
    const char* name;
    __nv_fp8_interpretation_t interp;
    __nv_saturation_t sat;
    const RefFormat* ref;
};
const Kind kKinds[] = {{"e4m3 nosat", __NV_E4M3, __NV_NOSAT, &kRefE4M3},
                       {"e4m3 satfinite", __NV_E4M3, __NV_SATFINITE, &kRefE4M3},
                       {"e5m2 nosat", __NV_E5M2, __NV_NOSAT, &kRefE5M2},
                       {"e5m2 satfinite", __NV_E5M2, __NV_SATFINITE, &kRefE5M2}};

// What CUDA gives for a NaN from float, half or bfloat16: the canonical NaN 0x7f in both formats.
std::uint8_t want_from_narrow(const Kind& k, float f) {
    return std::isnan(f) ? 0x7f : ref_round(*k.ref, f, k.sat == __NV_SATFINITE);
}

}  // namespace

TEST_CASE("every fp8 pattern widens to half exactly; NaNs become half's canonical NaN", "[conversion][fp8]") {
    for (const Kind& k : kKinds) {
        for (unsigned b = 0; b < 256; ++b) {
            const std::uint16_t h = __nv_cvt_fp8_to_halfraw(static_cast<__nv_fp8_storage_t>(b), k.interp).x;
            const float f = emu::lowp::half_to_float(h);
            if (ref_is_nan(*k.ref, static_cast<std::uint8_t>(b))) {
                REQUIRE(h == 0x7fffu);
                continue;
            }
            if (k.ref->e5m2 && (b & 0x7f) == 0x7c) {
                REQUIRE(h == ((b & 0x80) ? 0xfc00u : 0x7c00u));
                continue;
            }
            INFO(k.name << " pattern " << b);
            REQUIRE(static_cast<long double>(f) == ref_value(*k.ref, static_cast<std::uint8_t>(b)));
            REQUIRE(std::signbit(f) == ((b & 0x80u) != 0));
            // E5M2 is half with the low byte dropped.
            if (k.ref->e5m2) REQUIRE(h == (b << 8));
            // Every finite pattern is a fixed point of both saturation modes.
            REQUIRE(__nv_cvt_float_to_fp8(f, k.sat, k.interp) == b);
        }
        // The pair form puts .x in the low byte.
        const __half2_raw two = __nv_cvt_fp8x2_to_halfraw2(0x3c38, k.interp);
        CHECK(two.x == __nv_cvt_fp8_to_halfraw(0x38, k.interp).x);
        CHECK(two.y == __nv_cvt_fp8_to_halfraw(0x3c, k.interp).x);
    }
}

TEST_CASE("float to fp8 rounds as the reference does, over every float rounding class", "[conversion][fp8]") {
    const std::vector<std::uint32_t> inputs = fp8_samples::floats();
    REQUIRE(inputs.size() == 65536u * 6);
    for (const Kind& k : kKinds) {
        FirstMismatch bad;
        for (const std::uint32_t in : inputs) {
            const float f = float_of(in);
            const unsigned got = __nv_cvt_float_to_fp8(f, k.sat, k.interp);
            const unsigned want = want_from_narrow(k, f);
            if (got != want) bad.add(k.name, in, got, want);
        }
        INFO(k.name << ": " << bad.what);
        REQUIRE(bad.count == 0);
    }
}

TEST_CASE("every half and bfloat16 pattern converts to fp8 as the reference does", "[conversion][fp8]") {
    for (const Kind& k : kKinds) {
        FirstMismatch bad;
        for (std::uint32_t b = 0; b < 0x10000u; ++b) {
            const float fh = emu::lowp::half_to_float(static_cast<std::uint16_t>(b));
            const float fb = emu::lowp::bf16_to_float(static_cast<std::uint16_t>(b));
            const unsigned gh = __nv_cvt_halfraw_to_fp8(__half_raw{static_cast<unsigned short>(b)}, k.sat, k.interp);
            const unsigned gb =
                __nv_cvt_bfloat16raw_to_fp8(__nv_bfloat16_raw{static_cast<unsigned short>(b)}, k.sat, k.interp);
            if (gh != want_from_narrow(k, fh)) bad.add("half", b, gh, want_from_narrow(k, fh));
            if (gb != want_from_narrow(k, fb)) bad.add("bf16", b, gb, want_from_narrow(k, fb));
        }
        INFO(k.name << ": " << bad.what);
        REQUIRE(bad.count == 0);
    }
}

TEST_CASE("double to fp8 rounds once, and keeps a NaN's sign", "[conversion][fp8]") {
    const std::vector<std::uint64_t> inputs = fp8_samples::doubles();
    for (const Kind& k : kKinds) {
        FirstMismatch bad;
        for (const std::uint64_t in : inputs) {
            double d;
            std::memcpy(&d, &in, sizeof d);
            if (std::isnan(d)) continue;
            const unsigned got = __nv_cvt_double_to_fp8(d, k.sat, k.interp);
            const unsigned want = ref_round(*k.ref, d, k.sat == __NV_SATFINITE);
            if (got != want) bad.add(k.name, in, got, want);
        }
        INFO(k.name << ": " << bad.what);
        REQUIRE(bad.count == 0);
    }
    // CUDA's double conversion: E4M3 NaN is 0x7f with the sign; E5M2 keeps the payload's top two bits, quiet.
    CHECK(__nv_cvt_double_to_fp8(-std::nan(""), __NV_NOSAT, __NV_E4M3) == 0xff);
    CHECK(__nv_cvt_double_to_fp8(std::nan(""), __NV_SATFINITE, __NV_E4M3) == 0x7f);
    double snan;
    const std::uint64_t snan_bits = 0xfff4000000000000ull;  // payload top bits 01
    std::memcpy(&snan, &snan_bits, sizeof snan);
    CHECK(__nv_cvt_double_to_fp8(snan, __NV_NOSAT, __NV_E5M2) == 0xff);
    CHECK(__nv_cvt_double_to_fp8(std::nan(""), __NV_NOSAT, __NV_E5M2) == 0x7e);  // quiet bit: payload top bits 10
}

TEST_CASE("fp8 special values, spelled out", "[conversion][fp8]") {
    // E4M3: largest finite 448 (0x7e); 464 is the tie with the NaN encoding's value and rounds to even (448).
    CHECK(__nv_cvt_float_to_fp8(448.0f, __NV_NOSAT, __NV_E4M3) == 0x7e);
    CHECK(__nv_cvt_float_to_fp8(464.0f, __NV_NOSAT, __NV_E4M3) == 0x7e);
    CHECK(__nv_cvt_float_to_fp8(464.5f, __NV_NOSAT, __NV_E4M3) == 0x7f);
    CHECK(__nv_cvt_float_to_fp8(464.5f, __NV_SATFINITE, __NV_E4M3) == 0x7e);
    CHECK(__nv_cvt_float_to_fp8(-1e9f, __NV_SATFINITE, __NV_E4M3) == 0xfe);
    CHECK(__nv_cvt_float_to_fp8(-INFINITY, __NV_NOSAT, __NV_E4M3) == 0xff);
    CHECK(__nv_cvt_float_to_fp8(INFINITY, __NV_SATFINITE, __NV_E4M3) == 0x7e);
    // E5M2: largest finite 57344 (0x7b); 61440 ties with infinity and rounds to it.
    CHECK(__nv_cvt_float_to_fp8(57344.0f, __NV_NOSAT, __NV_E5M2) == 0x7b);
    CHECK(__nv_cvt_float_to_fp8(61439.0f, __NV_NOSAT, __NV_E5M2) == 0x7b);
    CHECK(__nv_cvt_float_to_fp8(61440.0f, __NV_NOSAT, __NV_E5M2) == 0x7c);
    CHECK(__nv_cvt_float_to_fp8(61440.0f, __NV_SATFINITE, __NV_E5M2) == 0x7b);
    CHECK(__nv_cvt_float_to_fp8(-INFINITY, __NV_NOSAT, __NV_E5M2) == 0xfc);
    // Subnormals: E4M3's smallest is 2^-9; half of it is a tie that goes to zero, anything above goes up.
    CHECK(__nv_cvt_float_to_fp8(std::ldexp(1.0f, -9), __NV_NOSAT, __NV_E4M3) == 0x01);
    CHECK(__nv_cvt_float_to_fp8(std::ldexp(1.0f, -10), __NV_NOSAT, __NV_E4M3) == 0x00);
    CHECK(__nv_cvt_float_to_fp8(std::nextafter(std::ldexp(1.0f, -10), 1.0f), __NV_NOSAT, __NV_E4M3) == 0x01);
    CHECK(__nv_cvt_float_to_fp8(-std::ldexp(1.0f, -12), __NV_NOSAT, __NV_E4M3) == 0x80);
    CHECK(__nv_cvt_float_to_fp8(std::ldexp(1.0f, -16), __NV_NOSAT, __NV_E5M2) == 0x01);
    // Every float NaN, whatever its sign, becomes 0x7f.
    CHECK(__nv_cvt_float_to_fp8(-NAN, __NV_NOSAT, __NV_E4M3) == 0x7f);
    CHECK(__nv_cvt_float_to_fp8(-NAN, __NV_SATFINITE, __NV_E5M2) == 0x7f);
    // Pairs and quads: .x in the low byte.
    CHECK(__nv_cvt_float2_to_fp8x2(make_float2(1.0f, -2.0f), __NV_SATFINITE, __NV_E4M3) == 0xc038);
}

TEST_CASE("the fp8 classes: saturating constructors, explicit conversions", "[conversion][fp8]") {
    CHECK(__nv_fp8_e4m3(1000.0f).__x == 0x7e);  // constructors saturate to finite values
    CHECK(__nv_fp8_e5m2(1e6).__x == 0x7b);
    CHECK(static_cast<float>(__nv_fp8_e5m2(0.3f)) == 0.3125f);
    CHECK(static_cast<float>(__nv_fp8_e4m3(__float2half(-3.7f))) == -3.75f);
    CHECK(static_cast<int>(__nv_fp8_e4m3(-3.7f)) == -3);
    CHECK(static_cast<unsigned char>(__nv_fp8_e4m3(300)) == 255);  // 288 saturates the byte
    __nv_fp8_e4m3 nan;
    nan.__x = 0x7f;
    CHECK(static_cast<int>(nan) == 0);
    CHECK(bits_of(static_cast<float>(nan)) ==
          0x7fffffffu);  // through half, whose NaNs widen to the canonical float NaN
    CHECK(static_cast<bool>(__nv_fp8_e4m3(0.0f)) == false);
    const __nv_fp8x4_e4m3 four(make_float4(1.0f, 2.0f, -0.5f, 448.0f));
    const float4 back = static_cast<float4>(four);
    CHECK(back.x == 1.0f);
    CHECK(back.y == 2.0f);
    CHECK(back.z == -0.5f);
    CHECK(back.w == 448.0f);
    const __nv_fp8x2_e5m2 two(__floats2half2_rn(0.25f, 3.0f));
    CHECK(static_cast<float2>(two).y == 3.0f);
    static_assert(sizeof(__nv_fp8_e4m3) == 1 && sizeof(__nv_fp8x2_e5m2) == 2 && sizeof(__nv_fp8x4_e4m3) == 4);
}
