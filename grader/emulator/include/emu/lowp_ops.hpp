// The arithmetic, comparison and math functions that cuda_fp16.h and cuda_bf16.h share by name (__hadd, __hmax2,
// hsqrt, operators, …), written once as templates over the 16-bit type and stamped out for __half and
// __nv_bfloat16 by EMU_LOWP_API(T, T2).
//
// Semantics (GPU: add/sub/mul/fma are single instructions, correctly rounded to nearest even; so are these):
//   * add, sub, mul, fma, div, sqrt, rcp: the exact result rounded once (via round-to-odd doubles, lowp_round.hpp).
//     GPU: __hdiv, hsqrt and hrcp are short float sequences around an approximate reciprocal/sqrt; they are meant to
//     be correctly rounded but that is not documented as guaranteed.
//   * hrsqrt, hexp, hlog, hsin, …: the double-precision function rounded once. GPU: approximate (MUFU); results can
//     differ from a GPU by an ulp.
//   * any NaN result is the canonical NaN 0x7fff; max/min return the non-NaN operand and treat -0 < +0.
#pragma once

#include <cmath>
#include <cstdint>

#include "emu/lowp_round.hpp"

namespace emu::lowp {

// Specialised by each header: `using fmt = Half;` and `static float to_float(std::uint16_t)`.
template <class T>
struct traits;

template <class T>
inline T make(std::uint16_t bits) {
    T t;
    t.__x = bits;
    return t;
}
template <class T>
inline float f(T a) {
    return traits<T>::to_float(a.__x);
}
template <class T>
inline bool isnan(T a) {
    return (a.__x & 0x7fffu) > traits<T>::fmt::inf;
}
template <class T>
inline T round(double x) {
    return make<T>(from_double<typename traits<T>::fmt>(x, Mode::rn));
}

template <class T>
inline T add(T a, T b) {
    return round<T>(add_odd(f(a), f(b)));
}
template <class T>
inline T sub(T a, T b) {
    return round<T>(add_odd(f(a), -double(f(b))));
}
template <class T>
inline T mul(T a, T b) {
    return round<T>(double(f(a)) * double(f(b)));
}
template <class T>
inline T fma(T a, T b, T c) {
    return round<T>(fma_odd(f(a), f(b), f(c)));
}
template <class T>
inline T div(T a, T b) {
    return round<T>(div_odd(f(a), f(b)));
}
template <class T>
inline T neg(T a) {
    return isnan(a) ? make<T>(0x7fff) : make<T>(a.__x ^ 0x8000u);
}
template <class T>
inline T abs(T a) {
    return isnan(a) ? make<T>(0x7fff) : make<T>(a.__x & 0x7fffu);
}

// max/min: a NaN operand yields the other operand, two NaNs the canonical NaN, and max(+0,-0) = +0, min = -0.
template <class T>
inline T max(T a, T b) {
    if (isnan(a) && isnan(b)) return make<T>(0x7fff);
    if (isnan(a)) return b;
    if (isnan(b)) return a;
    const float fa = f(a), fb = f(b);
    if (fa == fb) return (a.__x & 0x8000u) ? b : a;
    return fa > fb ? a : b;
}
template <class T>
inline T min(T a, T b) {
    if (isnan(a) && isnan(b)) return make<T>(0x7fff);
    if (isnan(a)) return b;
    if (isnan(b)) return a;
    const float fa = f(a), fb = f(b);
    if (fa == fb) return (a.__x & 0x8000u) ? a : b;
    return fa < fb ? a : b;
}
// The _nan variants propagate NaN instead.
template <class T>
inline T max_nan(T a, T b) {
    return isnan(a) || isnan(b) ? make<T>(0x7fff) : max(a, b);
}
template <class T>
inline T min_nan(T a, T b) {
    return isnan(a) || isnan(b) ? make<T>(0x7fff) : min(a, b);
}
// _sat: clamp the rounded result to [0, 1]; NaN becomes +0.
template <class T>
inline T sat(T a) {
    if (isnan(a)) return make<T>(0);
    const float x = f(a);
    if (x <= 0.0f) return make<T>(0);
    if (x >= 1.0f) return round<T>(1.0);
    return a;
}
template <class T>
inline T relu(T a) {
    return isnan(a) ? make<T>(0x7fff) : (f(a) < 0.0f ? make<T>(0) : a);
}

template <class T>
inline T sqrt(T a) {
    return round<T>(sqrt_odd(f(a)));
}
template <class T>
inline T rcp(T a) {
    return round<T>(div_odd(1.0, f(a)));
}
template <class T>
inline T rsqrt(T a) {
    return round<T>(1.0 / std::sqrt(double(f(a))));
}
template <class T>
inline T from_fn(double (*fn)(double), T a) {
    return round<T>(fn(double(f(a))));
}
inline double exp10_(double x) { return std::pow(10.0, x); }

template <class T>
inline int isinf(T a) {
    if (a.__x == traits<T>::fmt::inf) return 1;
    if (a.__x == (0x8000u | traits<T>::fmt::inf)) return -1;
    return 0;
}

}  // namespace emu::lowp

// One function per line, by name as CUDA spells it. T2 has members x and y of type T and a (T, T) constructor.
#define EMU_LOWP_UNARY2(name2, name1, T2) \
    inline T2 name2(const T2 a) { return T2(name1(a.x), name1(a.y)); }
#define EMU_LOWP_BINARY2(name2, name1, T2) \
    inline T2 name2(const T2 a, const T2 b) { return T2(name1(a.x, b.x), name1(a.y, b.y)); }
#define EMU_LOWP_TERNARY2(name2, name1, T2) \
    inline T2 name2(const T2 a, const T2 b, const T2 c) { return T2(name1(a.x, b.x, c.x), name1(a.y, b.y, c.y)); }
// Lane-wise comparisons give 1.0 or 0.0 per lane; the __hb… forms give true when both lanes compare true.
#define EMU_LOWP_COMPARE(T, T2, name, name2, bname2, expr)                                                           \
    inline bool name(const T a, const T b) {                                                                         \
        const float x = emu::lowp::f(a), y = emu::lowp::f(b);                                                        \
        return expr;                                                                                                 \
    }                                                                                                                \
    inline T2 name2(const T2 a, const T2 b) {                                                                        \
        return T2(emu::lowp::round<T>(name(a.x, b.x) ? 1.0 : 0.0), emu::lowp::round<T>(name(a.y, b.y) ? 1.0 : 0.0)); \
    }                                                                                                                \
    inline bool bname2(const T2 a, const T2 b) { return name(a.x, b.x) && name(a.y, b.y); }
#define EMU_LOWP_MATH(T, T2, name, name2, fn)                         \
    inline T name(const T a) { return emu::lowp::from_fn<T>(fn, a); } \
    EMU_LOWP_UNARY2(name2, name, T2)

#define EMU_LOWP_API(T, T2)                                                                                        \
    inline T __hadd(const T a, const T b) { return emu::lowp::add(a, b); }                                         \
    inline T __hsub(const T a, const T b) { return emu::lowp::sub(a, b); }                                         \
    inline T __hmul(const T a, const T b) { return emu::lowp::mul(a, b); }                                         \
    inline T __hdiv(const T a, const T b) { return emu::lowp::div(a, b); }                                         \
    inline T __hfma(const T a, const T b, const T c) { return emu::lowp::fma(a, b, c); }                           \
    /* _rn: the same rounding, and on the GPU never contracted into an fma */                                      \
    inline T __hadd_rn(const T a, const T b) { return emu::lowp::add(a, b); }                                      \
    inline T __hsub_rn(const T a, const T b) { return emu::lowp::sub(a, b); }                                      \
    inline T __hmul_rn(const T a, const T b) { return emu::lowp::mul(a, b); }                                      \
    inline T __hadd_sat(const T a, const T b) { return emu::lowp::sat(emu::lowp::add(a, b)); }                     \
    inline T __hsub_sat(const T a, const T b) { return emu::lowp::sat(emu::lowp::sub(a, b)); }                     \
    inline T __hmul_sat(const T a, const T b) { return emu::lowp::sat(emu::lowp::mul(a, b)); }                     \
    inline T __hfma_sat(const T a, const T b, const T c) { return emu::lowp::sat(emu::lowp::fma(a, b, c)); }       \
    inline T __hfma_relu(const T a, const T b, const T c) { return emu::lowp::relu(emu::lowp::fma(a, b, c)); }     \
    inline T __hneg(const T a) { return emu::lowp::neg(a); }                                                       \
    inline T __habs(const T a) { return emu::lowp::abs(a); }                                                       \
    inline T __hmax(const T a, const T b) { return emu::lowp::max(a, b); }                                         \
    inline T __hmin(const T a, const T b) { return emu::lowp::min(a, b); }                                         \
    inline T __hmax_nan(const T a, const T b) { return emu::lowp::max_nan(a, b); }                                 \
    inline T __hmin_nan(const T a, const T b) { return emu::lowp::min_nan(a, b); }                                 \
    EMU_LOWP_BINARY2(__hadd2, __hadd, T2)                                                                          \
    EMU_LOWP_BINARY2(__hsub2, __hsub, T2)                                                                          \
    EMU_LOWP_BINARY2(__hmul2, __hmul, T2)                                                                          \
    EMU_LOWP_BINARY2(__h2div, __hdiv, T2)                                                                          \
    EMU_LOWP_TERNARY2(__hfma2, __hfma, T2)                                                                         \
    EMU_LOWP_BINARY2(__hadd2_rn, __hadd_rn, T2)                                                                    \
    EMU_LOWP_BINARY2(__hsub2_rn, __hsub_rn, T2)                                                                    \
    EMU_LOWP_BINARY2(__hmul2_rn, __hmul_rn, T2)                                                                    \
    EMU_LOWP_BINARY2(__hadd2_sat, __hadd_sat, T2)                                                                  \
    EMU_LOWP_BINARY2(__hsub2_sat, __hsub_sat, T2)                                                                  \
    EMU_LOWP_BINARY2(__hmul2_sat, __hmul_sat, T2)                                                                  \
    EMU_LOWP_TERNARY2(__hfma2_sat, __hfma_sat, T2)                                                                 \
    EMU_LOWP_TERNARY2(__hfma2_relu, __hfma_relu, T2)                                                               \
    EMU_LOWP_UNARY2(__hneg2, __hneg, T2)                                                                           \
    EMU_LOWP_UNARY2(__habs2, __habs, T2)                                                                           \
    EMU_LOWP_BINARY2(__hmax2, __hmax, T2)                                                                          \
    EMU_LOWP_BINARY2(__hmin2, __hmin, T2)                                                                          \
    EMU_LOWP_BINARY2(__hmax2_nan, __hmax_nan, T2)                                                                  \
    EMU_LOWP_BINARY2(__hmin2_nan, __hmin_nan, T2)                                                                  \
    /* ordered comparisons are false when either operand is NaN; the …u forms are true then */                   \
    EMU_LOWP_COMPARE(T, T2, __heq, __heq2, __hbeq2, x == y)                                                        \
    EMU_LOWP_COMPARE(T, T2, __hne, __hne2, __hbne2, x<y || x> y)                                                   \
    EMU_LOWP_COMPARE(T, T2, __hle, __hle2, __hble2, x <= y)                                                        \
    EMU_LOWP_COMPARE(T, T2, __hge, __hge2, __hbge2, x >= y)                                                        \
    EMU_LOWP_COMPARE(T, T2, __hlt, __hlt2, __hblt2, x < y)                                                         \
    EMU_LOWP_COMPARE(T, T2, __hgt, __hgt2, __hbgt2, x > y)                                                         \
    EMU_LOWP_COMPARE(T, T2, __hequ, __hequ2, __hbequ2, !(x < y || x > y))                                          \
    EMU_LOWP_COMPARE(T, T2, __hneu, __hneu2, __hbneu2, !(x == y))                                                  \
    EMU_LOWP_COMPARE(T, T2, __hleu, __hleu2, __hbleu2, !(x > y))                                                   \
    EMU_LOWP_COMPARE(T, T2, __hgeu, __hgeu2, __hbgeu2, !(x < y))                                                   \
    EMU_LOWP_COMPARE(T, T2, __hltu, __hltu2, __hbltu2, !(x >= y))                                                  \
    EMU_LOWP_COMPARE(T, T2, __hgtu, __hgtu2, __hbgtu2, !(x <= y))                                                  \
    inline bool __hisnan(const T a) { return emu::lowp::isnan(a); }                                                \
    inline int __hisinf(const T a) { return emu::lowp::isinf(a); }                                                 \
    inline T2 __hisnan2(const T2 a) {                                                                              \
        return T2(emu::lowp::round<T>(__hisnan(a.x) ? 1.0 : 0.0), emu::lowp::round<T>(__hisnan(a.y) ? 1.0 : 0.0)); \
    }                                                                                                              \
    inline T hsqrt(const T a) { return emu::lowp::sqrt(a); }                                                       \
    inline T hrcp(const T a) { return emu::lowp::rcp(a); }                                                         \
    inline T hrsqrt(const T a) { return emu::lowp::rsqrt(a); }                                                     \
    EMU_LOWP_UNARY2(h2sqrt, hsqrt, T2)                                                                             \
    EMU_LOWP_UNARY2(h2rcp, hrcp, T2)                                                                               \
    EMU_LOWP_UNARY2(h2rsqrt, hrsqrt, T2)                                                                           \
    EMU_LOWP_MATH(T, T2, hexp, h2exp, static_cast<double (*)(double)>(std::exp))                                   \
    EMU_LOWP_MATH(T, T2, hexp2, h2exp2, static_cast<double (*)(double)>(std::exp2))                                \
    EMU_LOWP_MATH(T, T2, hexp10, h2exp10, emu::lowp::exp10_)                                                       \
    EMU_LOWP_MATH(T, T2, hlog, h2log, static_cast<double (*)(double)>(std::log))                                   \
    EMU_LOWP_MATH(T, T2, hlog2, h2log2, static_cast<double (*)(double)>(std::log2))                                \
    EMU_LOWP_MATH(T, T2, hlog10, h2log10, static_cast<double (*)(double)>(std::log10))                             \
    EMU_LOWP_MATH(T, T2, hsin, h2sin, static_cast<double (*)(double)>(std::sin))                                   \
    EMU_LOWP_MATH(T, T2, hcos, h2cos, static_cast<double (*)(double)>(std::cos))                                   \
    EMU_LOWP_MATH(T, T2, htanh, h2tanh, static_cast<double (*)(double)>(std::tanh))                                \
    EMU_LOWP_MATH(T, T2, hceil, h2ceil, static_cast<double (*)(double)>(std::ceil))                                \
    EMU_LOWP_MATH(T, T2, hfloor, h2floor, static_cast<double (*)(double)>(std::floor))                             \
    EMU_LOWP_MATH(T, T2, htrunc, h2trunc, static_cast<double (*)(double)>(std::trunc))                             \
    EMU_LOWP_MATH(T, T2, hrint, h2rint, static_cast<double (*)(double)>(std::nearbyint))

// Operators, as CUDA defines them for host and device code (left out under __CUDA_NO_HALF_OPERATORS__ & co.).
#define EMU_LOWP_OPERATORS(T)                                                      \
    inline T operator+(const T& a, const T& b) { return __hadd(a, b); }            \
    inline T operator-(const T& a, const T& b) { return __hsub(a, b); }            \
    inline T operator*(const T& a, const T& b) { return __hmul(a, b); }            \
    inline T operator/(const T& a, const T& b) { return __hdiv(a, b); }            \
    inline T& operator+=(T& a, const T& b) { return a = __hadd(a, b); }            \
    inline T& operator-=(T& a, const T& b) { return a = __hsub(a, b); }            \
    inline T& operator*=(T& a, const T& b) { return a = __hmul(a, b); }            \
    inline T& operator/=(T& a, const T& b) { return a = __hdiv(a, b); }            \
    inline T operator+(const T& a) { return a; }                                   \
    inline T operator-(const T& a) { return __hneg(a); }                           \
    inline T& operator++(T& a) { return a = __hadd(a, emu::lowp::round<T>(1.0)); } \
    inline T& operator--(T& a) { return a = __hsub(a, emu::lowp::round<T>(1.0)); } \
    inline T operator++(T& a, int) {                                               \
        const T old = a;                                                           \
        ++a;                                                                       \
        return old;                                                                \
    }                                                                              \
    inline T operator--(T& a, int) {                                               \
        const T old = a;                                                           \
        --a;                                                                       \
        return old;                                                                \
    }                                                                              \
    inline bool operator==(const T& a, const T& b) { return __heq(a, b); }         \
    inline bool operator!=(const T& a, const T& b) { return __hneu(a, b); }        \
    inline bool operator<(const T& a, const T& b) { return __hlt(a, b); }          \
    inline bool operator>(const T& a, const T& b) { return __hgt(a, b); }          \
    inline bool operator<=(const T& a, const T& b) { return __hle(a, b); }         \
    inline bool operator>=(const T& a, const T& b) { return __hge(a, b); }

#define EMU_LOWP_OPERATORS2(T, T2)                                              \
    inline T2 operator+(const T2& a, const T2& b) { return __hadd2(a, b); }     \
    inline T2 operator-(const T2& a, const T2& b) { return __hsub2(a, b); }     \
    inline T2 operator*(const T2& a, const T2& b) { return __hmul2(a, b); }     \
    inline T2 operator/(const T2& a, const T2& b) { return __h2div(a, b); }     \
    inline T2& operator+=(T2& a, const T2& b) { return a = __hadd2(a, b); }     \
    inline T2& operator-=(T2& a, const T2& b) { return a = __hsub2(a, b); }     \
    inline T2& operator*=(T2& a, const T2& b) { return a = __hmul2(a, b); }     \
    inline T2& operator/=(T2& a, const T2& b) { return a = __h2div(a, b); }     \
    inline T2 operator+(const T2& a) { return a; }                              \
    inline T2 operator-(const T2& a) { return __hneg2(a); }                     \
    inline T2& operator++(T2& a) {                                              \
        const T one = emu::lowp::round<T>(1.0);                                 \
        return a = __hadd2(a, T2(one, one));                                    \
    }                                                                           \
    inline T2& operator--(T2& a) {                                              \
        const T one = emu::lowp::round<T>(1.0);                                 \
        return a = __hsub2(a, T2(one, one));                                    \
    }                                                                           \
    inline T2 operator++(T2& a, int) {                                          \
        const T2 old = a;                                                       \
        ++a;                                                                    \
        return old;                                                             \
    }                                                                           \
    inline T2 operator--(T2& a, int) {                                          \
        const T2 old = a;                                                       \
        --a;                                                                    \
        return old;                                                             \
    }                                                                           \
    inline bool operator==(const T2& a, const T2& b) { return __hbeq2(a, b); }  \
    inline bool operator!=(const T2& a, const T2& b) { return __hbneu2(a, b); } \
    inline bool operator<(const T2& a, const T2& b) { return __hblt2(a, b); }   \
    inline bool operator>(const T2& a, const T2& b) { return __hbgt2(a, b); }   \
    inline bool operator<=(const T2& a, const T2& b) { return __hble2(a, b); }  \
    inline bool operator>=(const T2& a, const T2& b) { return __hbge2(a, b); }

// Integer conversions: into the 16-bit type rounded once in the named mode; out of it saturating, NaN giving 0
// (cvt.rni/rzi/rmi/rpi on the GPU). TO is the "__half2" prefix, FROM the "2half" suffix.
#define EMU_LOWP_INT_ONE(T, FMT, TO, FROM, tname, I, mode, dmode, from_fn)                            \
    inline I TO##tname##_##mode(const T h) { return emu::detail::to_int<I>(emu::lowp::f(h), dmode); } \
    inline T __##tname##FROM##_##mode(const I i) {                                                    \
        return emu::lowp::make<T>(emu::lowp::from_fn<FMT>(i, emu::lowp::Mode::mode));                 \
    }
#define EMU_LOWP_INT_MODES(T, FMT, TO, FROM, tname, I, from_fn)                                   \
    EMU_LOWP_INT_ONE(T, FMT, TO, FROM, tname, I, rn, emu::detail::Rounding::nearest, from_fn)     \
    EMU_LOWP_INT_ONE(T, FMT, TO, FROM, tname, I, rz, emu::detail::Rounding::toward_zero, from_fn) \
    EMU_LOWP_INT_ONE(T, FMT, TO, FROM, tname, I, rd, emu::detail::Rounding::down, from_fn)        \
    EMU_LOWP_INT_ONE(T, FMT, TO, FROM, tname, I, ru, emu::detail::Rounding::up, from_fn)
#define EMU_LOWP_INT_CONVERSIONS(T, FMT, TO, FROM)                                                      \
    EMU_LOWP_INT_MODES(T, FMT, TO, FROM, int, int, from_int)                                            \
    EMU_LOWP_INT_MODES(T, FMT, TO, FROM, uint, unsigned int, from_uint)                                 \
    EMU_LOWP_INT_MODES(T, FMT, TO, FROM, short, short, from_int)                                        \
    EMU_LOWP_INT_MODES(T, FMT, TO, FROM, ushort, unsigned short, from_uint)                             \
    EMU_LOWP_INT_MODES(T, FMT, TO, FROM, ll, long long, from_int)                                       \
    EMU_LOWP_INT_MODES(T, FMT, TO, FROM, ull, unsigned long long, from_uint)                            \
    inline signed char TO##char_rz(const T h) {                                                         \
        return emu::detail::to_int<signed char>(emu::lowp::f(h), emu::detail::Rounding::toward_zero);   \
    }                                                                                                   \
    inline unsigned char TO##uchar_rz(const T h) {                                                      \
        return emu::detail::to_int<unsigned char>(emu::lowp::f(h), emu::detail::Rounding::toward_zero); \
    }
