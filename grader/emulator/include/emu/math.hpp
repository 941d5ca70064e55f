// CUDA's device math and bit intrinsics, as ordinary host functions.
//
// Fidelity: everything here is exact or correctly rounded on the host. Where the GPU's version is an approximation
// (marked "GPU: approximate"), results can differ from a GPU in the last bits, so tests must compare with a
// tolerance, never bit for bit. Where the GPU's version is exact (bit intrinsics, the _rn/_rz/_rd/_ru arithmetic,
// integer conversions), so is this one, and the bit patterns match.
#pragma once

#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <math.h>  // the C++ wrapper: puts the float overloads of sqrt, exp, … in the global namespace, as CUDA does

namespace emu::detail {
template <class To, class From>
inline To bit_cast(const From& from) {
    static_assert(sizeof(To) == sizeof(From), "bit_cast needs equal sizes");
    To to;
    std::memcpy(&to, &from, sizeof(To));
    return to;
}

enum class Rounding { nearest, toward_zero, down, up };

// Turns a round-to-nearest result `r` whose exact value is r + err (err exact, |err| <= half an ulp of r) into the
// result of a directed rounding: one step toward the exact value when rounding to nearest went the wrong way.
template <class F, class E>
inline F directed(F r, E err, Rounding mode) {
    if (err == E(0) || std::isnan(r)) return r;
    const F inf = std::numeric_limits<F>::infinity();
    switch (mode) {
        case Rounding::nearest: return r;
        case Rounding::down: return err < E(0) ? std::nextafter(r, -inf) : r;
        case Rounding::up: return err > E(0) ? std::nextafter(r, inf) : r;
        case Rounding::toward_zero:
            return ((r > 0 && err < E(0)) || (r < 0 && err > E(0))) ? std::nextafter(r, F(0)) : r;
    }
    return r;
}

// Rounding to nearest overflowed to ±inf although the operands were finite: a directed rounding that points away
// from that infinity stops at the largest finite value instead.
template <class F>
inline F overflowed(F r, Rounding mode) {
    const F big = std::numeric_limits<F>::max();
    const bool positive = r > 0;
    switch (mode) {
        case Rounding::nearest: return r;
        case Rounding::toward_zero: return positive ? big : -big;
        case Rounding::down: return positive ? big : r;
        case Rounding::up: return positive ? r : -big;
    }
    return r;
}

// a + b under `mode`, via Knuth's TwoSum (the rounding error of a round-to-nearest sum is itself a float).
template <class F>
inline F add(F a, F b, Rounding mode) {
    const F s = a + b;
    if (std::isinf(s) && std::isfinite(a) && std::isfinite(b)) return overflowed(s, mode);
    if (!std::isfinite(s)) return s;
    const F bb = s - a;
    const F err = (a - (s - bb)) + (b - bb);
    if (s == F(0) && err == F(0)) {
        // An exact zero sum is +0 in every rounding but downward, where it is -0 (IEEE 754 §6.3); zeros of one sign
        // keep that sign.
        const bool same_sign_zeros = a == F(0) && b == F(0) && std::signbit(a) == std::signbit(b);
        return (mode == Rounding::down && !same_sign_zeros) ? F(-0.0) : s;
    }
    return directed(s, err, mode);
}

// a * b under `mode`. The float product is exact in double; the double product's error comes from fma, which is
// exact unless the product is deep in double's subnormal range (only reachable for double operands near 2^-1022).
inline float mul(float a, float b, Rounding mode) {
    const double exact = double(a) * double(b);
    const float r = float(exact);
    if (std::isinf(r) && std::isfinite(exact)) return overflowed(r, mode);
    if (!std::isfinite(r)) return r;
    return directed(r, exact - double(r), mode);  // in double: a product below float's range still has a sign
}
inline double mul(double a, double b, Rounding mode) {
    const double p = a * b;
    if (std::isinf(p) && std::isfinite(a) && std::isfinite(b)) return overflowed(p, mode);
    if (!std::isfinite(p)) return p;
    return directed(p, std::fma(a, b, -p), mode);
}

// Float-to-integer conversions saturate on the GPU (cvt.rni.s32.f32 & co.): out-of-range inputs give the nearest
// representable integer and NaN gives 0. A host cast would be undefined behaviour instead.
template <class I, class F>
inline I saturating_cast(F x) {
    if (std::isnan(x)) return I(0);
    if (x <= F(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
    if (x >= F(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max();
    return I(x);
}
template <class I, class F>
inline I to_int(F x, Rounding mode) {
    F r = x;
    switch (mode) {
        case Rounding::nearest: r = std::nearbyint(x); break;  // default FP environment: ties to even
        case Rounding::toward_zero: r = std::trunc(x); break;
        case Rounding::down: r = std::floor(x); break;
        case Rounding::up: r = std::ceil(x); break;
    }
    return saturating_cast<I>(r);
}
}  // namespace emu::detail

// ---- reinterpretation ----------------------------------------------------------------------------------------
inline int __float_as_int(float x) { return emu::detail::bit_cast<int>(x); }
inline unsigned int __float_as_uint(float x) { return emu::detail::bit_cast<unsigned int>(x); }
inline float __int_as_float(int x) { return emu::detail::bit_cast<float>(x); }
inline float __uint_as_float(unsigned int x) { return emu::detail::bit_cast<float>(x); }
inline long long __double_as_longlong(double x) { return emu::detail::bit_cast<long long>(x); }
inline double __longlong_as_double(long long x) { return emu::detail::bit_cast<double>(x); }
inline int __double2hiint(double x) { return int(__double_as_longlong(x) >> 32); }
inline int __double2loint(double x) { return int(__double_as_longlong(x) & 0xffffffffLL); }
inline double __hiloint2double(int hi, int lo) {
    return __longlong_as_double(
        (long long)(((unsigned long long)(unsigned int)hi << 32) | (unsigned long long)(unsigned int)lo));
}

// ---- fast-math intrinsics (GPU: approximate; here: the exact function) --------------------------------------
// rsqrtf/rsqrt: GPU: approximate (MUFU.RSQ, up to 2 ulp for rsqrtf). Here 1/sqrt in double, rounded once: within
// half an ulp except in astronomically rare double-rounding cases.
inline float rsqrtf(float x) { return float(1.0 / std::sqrt(double(x))); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }  // GPU: correctly rounded within 1 ulp
inline float rcbrtf(float x) { return float(1.0 / std::cbrt(double(x))); }
inline double rcbrt(double x) { return 1.0 / std::cbrt(x); }
// __fdividef: GPU: approximate (2 ulp), and returns 0 for 2^126 < |y| < 2^128 where exact division does not.
inline float __fdividef(float x, float y) { return x / y; }
inline float fdividef(float x, float y) { return x / y; }
// __expf, __logf, __sinf, … : GPU: hardware approximations (MUFU.EX2/LG2/SIN/COS) with errors of a few ulp, far
// more for __sinf/__cosf outside [-pi, pi] and for __powf with large exponents. Here: the C library's functions.
inline float __expf(float x) { return std::exp(x); }
inline float __exp10f(float x) { return std::pow(10.0f, x); }
inline float __logf(float x) { return std::log(x); }
inline float __log2f(float x) { return std::log2(x); }
inline float __log10f(float x) { return std::log10(x); }
inline float __sinf(float x) { return std::sin(x); }
inline float __cosf(float x) { return std::cos(x); }
inline float __tanf(float x) { return std::tan(x); }
inline void __sincosf(float x, float* s, float* c) {
    *s = std::sin(x);
    *c = std::cos(x);
}
inline float __powf(float x, float y) { return std::pow(x, y); }
// Clamps to [0, 1]; NaN gives 0, as on the GPU (the .sat modifier).
inline float __saturatef(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }
inline float saturate(float x) { return __saturatef(x); }

// ---- IEEE arithmetic with an explicit rounding (GPU: exact; here: exact, same bits) --------------------------
// On the GPU these also forbid contracting a*b+c into one fma; a host build contracts only with -ffp-contract=fast
// on FMA hardware, and calls through these functions are never contracted.
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fadd_rz(float a, float b) { return emu::detail::add(a, b, emu::detail::Rounding::toward_zero); }
inline float __fadd_rd(float a, float b) { return emu::detail::add(a, b, emu::detail::Rounding::down); }
inline float __fadd_ru(float a, float b) { return emu::detail::add(a, b, emu::detail::Rounding::up); }
inline float __fsub_rn(float a, float b) { return a - b; }
inline float __fsub_rz(float a, float b) { return __fadd_rz(a, -b); }
inline float __fsub_rd(float a, float b) { return __fadd_rd(a, -b); }
inline float __fsub_ru(float a, float b) { return __fadd_ru(a, -b); }
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __fmul_rz(float a, float b) { return emu::detail::mul(a, b, emu::detail::Rounding::toward_zero); }
inline float __fmul_rd(float a, float b) { return emu::detail::mul(a, b, emu::detail::Rounding::down); }
inline float __fmul_ru(float a, float b) { return emu::detail::mul(a, b, emu::detail::Rounding::up); }
inline float __fmaf_rn(float a, float b, float c) { return std::fma(a, b, c); }
inline float __fdiv_rn(float a, float b) { return a / b; }
inline float __frcp_rn(float a) { return 1.0f / a; }
inline float __fsqrt_rn(float a) { return std::sqrt(a); }
inline float __frsqrt_rn(float a) { return rsqrtf(a); }
inline double __dadd_rn(double a, double b) { return a + b; }
inline double __dadd_rz(double a, double b) { return emu::detail::add(a, b, emu::detail::Rounding::toward_zero); }
inline double __dadd_rd(double a, double b) { return emu::detail::add(a, b, emu::detail::Rounding::down); }
inline double __dadd_ru(double a, double b) { return emu::detail::add(a, b, emu::detail::Rounding::up); }
inline double __dsub_rn(double a, double b) { return a - b; }
inline double __dmul_rn(double a, double b) { return a * b; }
inline double __dmul_rz(double a, double b) { return emu::detail::mul(a, b, emu::detail::Rounding::toward_zero); }
inline double __dmul_rd(double a, double b) { return emu::detail::mul(a, b, emu::detail::Rounding::down); }
inline double __dmul_ru(double a, double b) { return emu::detail::mul(a, b, emu::detail::Rounding::up); }
inline double __fma_rn(double a, double b, double c) { return std::fma(a, b, c); }
inline double __ddiv_rn(double a, double b) { return a / b; }
inline double __drcp_rn(double a) { return 1.0 / a; }
inline double __dsqrt_rn(double a) { return std::sqrt(a); }

// ---- conversions (GPU: exact, saturating; here the same) -----------------------------------------------------
#define EMU_F2I(suffix, mode)                                                                                   \
    inline int __float2int_##suffix(float x) { return emu::detail::to_int<int>(x, mode); }                      \
    inline unsigned int __float2uint_##suffix(float x) { return emu::detail::to_int<unsigned int>(x, mode); }   \
    inline long long __float2ll_##suffix(float x) { return emu::detail::to_int<long long>(x, mode); }           \
    inline unsigned long long __float2ull_##suffix(float x) {                                                   \
        return emu::detail::to_int<unsigned long long>(x, mode);                                                \
    }                                                                                                           \
    inline int __double2int_##suffix(double x) { return emu::detail::to_int<int>(x, mode); }                    \
    inline unsigned int __double2uint_##suffix(double x) { return emu::detail::to_int<unsigned int>(x, mode); } \
    inline long long __double2ll_##suffix(double x) { return emu::detail::to_int<long long>(x, mode); }
EMU_F2I(rn, emu::detail::Rounding::nearest)
EMU_F2I(rz, emu::detail::Rounding::toward_zero)
EMU_F2I(rd, emu::detail::Rounding::down)
EMU_F2I(ru, emu::detail::Rounding::up)
#undef EMU_F2I
inline float __int2float_rn(int x) { return float(x); }
inline float __uint2float_rn(unsigned int x) { return float(x); }
inline float __ll2float_rn(long long x) { return float(x); }
inline float __ull2float_rn(unsigned long long x) { return float(x); }
inline float __double2float_rn(double x) { return float(x); }
inline double __int2double_rn(int x) { return double(x); }

// ---- integer intrinsics (GPU: exact; here the same) -----------------------------------------------------------
inline int __popc(unsigned int x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned int)x); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
inline int __ffs(int x) { return __builtin_ffs(x); }  // 1-based position of the lowest set bit, 0 for 0
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned int __brev(unsigned int x) {
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    return __builtin_bswap32(x);
}
inline unsigned long long __brevll(unsigned long long x) {
    return ((unsigned long long)__brev((unsigned int)x) << 32) | __brev((unsigned int)(x >> 32));
}
// The 24-bit multiplies use only the low 24 bits of each operand (sign-extended for __mul24), as the GPU does.
inline int __mul24(int a, int b) {
    const long long sa = (int)((unsigned int)a << 8) >> 8;  // arithmetic shift: sign-extends bit 23
    const long long sb = (int)((unsigned int)b << 8) >> 8;
    return (int)(unsigned int)(unsigned long long)(sa * sb);
}
inline unsigned int __umul24(unsigned int a, unsigned int b) { return (a & 0xffffffu) * (b & 0xffffffu); }
inline int __mulhi(int a, int b) { return (int)(((long long)a * (long long)b) >> 32); }
inline unsigned int __umulhi(unsigned int a, unsigned int b) {
    return (unsigned int)(((unsigned long long)a * (unsigned long long)b) >> 32);
}
namespace emu::detail {
__extension__ typedef __int128 int128;  // __extension__: no -Wpedantic warning in the student's build output
__extension__ typedef unsigned __int128 uint128;
}  // namespace emu::detail
inline long long __mul64hi(long long a, long long b) {
    return (long long)(((emu::detail::int128)a * (emu::detail::int128)b) >> 64);
}
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
    return (unsigned long long)(((emu::detail::uint128)a * (emu::detail::uint128)b) >> 64);
}
inline unsigned int __sad(int x, int y, unsigned int z) {
    return z + (unsigned int)(x > y ? (long long)x - y : (long long)y - x);
}
inline unsigned int __usad(unsigned int x, unsigned int y, unsigned int z) { return z + (x > y ? x - y : y - x); }
inline int __hadd(int a, int b) { return (int)(((long long)a + b) >> 1); }
inline int __rhadd(int a, int b) { return (int)(((long long)a + b + 1) >> 1); }
inline unsigned int __uhadd(unsigned int a, unsigned int b) { return (unsigned int)(((unsigned long long)a + b) >> 1); }
inline unsigned int __urhadd(unsigned int a, unsigned int b) {
    return (unsigned int)(((unsigned long long)a + b + 1) >> 1);
}
// Selects bytes of the 8-byte value {b:a} by the four low nibbles of s (only the nibbles' low 3 bits count).
inline unsigned int __byte_perm(unsigned int a, unsigned int b, unsigned int s) {
    const unsigned long long v = ((unsigned long long)b << 32) | a;
    unsigned int r = 0;
    for (int i = 0; i < 4; ++i) r |= (unsigned int)((v >> (8 * ((s >> (4 * i)) & 7u))) & 0xffu) << (8 * i);
    return r;
}
// Funnel shifts of the 64-bit value {hi:lo}; _l/_r wrap the shift to its low 5 bits, _lc/_rc clamp it to 32.
inline unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int s) {
    return (unsigned int)(((((unsigned long long)hi << 32) | lo) << (s & 31u)) >> 32);
}
inline unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi, unsigned int s) {
    s = s < 32u ? s : 32u;
    return (unsigned int)(((((unsigned long long)hi << 32) | lo) << s) >> 32);
}
inline unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int s) {
    return (unsigned int)((((unsigned long long)hi << 32) | lo) >> (s & 31u));
}
inline unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi, unsigned int s) {
    s = s < 32u ? s : 32u;
    return (unsigned int)((((unsigned long long)hi << 32) | lo) >> s);
}

// ---- min / max as device code calls them unqualified (CUDA's overload set, mixed signedness included) -----------
#define EMU_MINMAX(R, A, B)                                      \
    inline R min(A a, B b) { return (R)a < (R)b ? (R)a : (R)b; } \
    inline R max(A a, B b) { return (R)a > (R)b ? (R)a : (R)b; }
EMU_MINMAX(int, int, int)
EMU_MINMAX(unsigned int, unsigned int, unsigned int)
EMU_MINMAX(unsigned int, int, unsigned int)
EMU_MINMAX(unsigned int, unsigned int, int)
EMU_MINMAX(long, long, long)
EMU_MINMAX(unsigned long, unsigned long, unsigned long)
EMU_MINMAX(unsigned long, long, unsigned long)
EMU_MINMAX(unsigned long, unsigned long, long)
EMU_MINMAX(long long, long long, long long)
EMU_MINMAX(unsigned long long, unsigned long long, unsigned long long)
EMU_MINMAX(unsigned long long, long long, unsigned long long)
EMU_MINMAX(unsigned long long, unsigned long long, long long)
#undef EMU_MINMAX
// Floating-point min/max are fminf/fmaxf: a NaN operand yields the other operand.
inline float min(float a, float b) { return std::fmin(a, b); }
inline float max(float a, float b) { return std::fmax(a, b); }
inline double min(double a, double b) { return std::fmin(a, b); }
inline double max(double a, double b) { return std::fmax(a, b); }
inline double min(float a, double b) { return std::fmin(double(a), b); }
inline double max(float a, double b) { return std::fmax(double(a), b); }
inline double min(double a, float b) { return std::fmin(a, double(b)); }
inline double max(double a, float b) { return std::fmax(a, double(b)); }
inline unsigned int umin(unsigned int a, unsigned int b) { return a < b ? a : b; }
inline unsigned int umax(unsigned int a, unsigned int b) { return a > b ? a : b; }
inline long long llmin(long long a, long long b) { return a < b ? a : b; }
inline long long llmax(long long a, long long b) { return a > b ? a : b; }
inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return a > b ? a : b; }

#include "math_constants.hpp"
