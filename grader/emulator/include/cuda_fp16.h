// CUDA's half precision (__half, __half2) for emulator builds: same names, layouts, implicit conversions and
// operators as nvcc sees them in cuda_fp16.h, with conversions bit-exact with CUDA's (emu/lowp_round.hpp).
// Everything is usable in host code too, so tests can build inputs and references with the same functions.
// Honours __CUDA_NO_HALF_CONVERSIONS__ and __CUDA_NO_HALF_OPERATORS__ / __CUDA_NO_HALF2_OPERATORS__ as CUDA does.
#pragma once
// CUDA's guard and feature macros, which code tests before using __half.
#define __CUDA_FP16_H__
#define __CUDA_FP16_TYPES_EXIST__

#include <cstdint>

#include "emu/lowp_ops.hpp"
#include "emu/lowp_round.hpp"
#include "emu/math.hpp"
#include "emu/vector_types.hpp"

struct __half_raw {
    unsigned short x;
};
struct __half2_raw {
    unsigned short x, y;
};

// Trivially copyable with a trivial default constructor (the value is left uninitialised, as in CUDA), so it can
// live in __shared__ arrays and in structs copied as 16-byte vectors.
struct alignas(2) __half {
    unsigned short __x;

    __half() = default;
    constexpr __half(const __half_raw& r) : __x(r.x) {}
    __half& operator=(const __half_raw& r) {
        __x = r.x;
        return *this;
    }
    constexpr operator __half_raw() const { return __half_raw{__x}; }

#if !defined(__CUDA_NO_HALF_CONVERSIONS__)
    __half(const float f) : __x(emu::lowp::from_float<emu::lowp::Half>(f, emu::lowp::Mode::rn)) {}
    __half(const double d) : __x(emu::lowp::from_double<emu::lowp::Half>(d, emu::lowp::Mode::rn)) {}
    __half& operator=(const float f) { return *this = __half(f); }
    __half& operator=(const double d) { return *this = __half(d); }
    operator float() const { return emu::lowp::half_to_float(__x); }
    // Integers convert in round-to-nearest; out of __half, toward zero and saturating. Having both float and integer
    // conversions makes mixed expressions such as `h * 2.0f` ambiguous, exactly as under nvcc.
    __half(const short v) : __x(emu::lowp::from_int<emu::lowp::Half>(v, emu::lowp::Mode::rn)) {}
    __half(const unsigned short v) : __x(emu::lowp::from_uint<emu::lowp::Half>(v, emu::lowp::Mode::rn)) {}
    __half(const int v) : __x(emu::lowp::from_int<emu::lowp::Half>(v, emu::lowp::Mode::rn)) {}
    __half(const unsigned int v) : __x(emu::lowp::from_uint<emu::lowp::Half>(v, emu::lowp::Mode::rn)) {}
    __half(const long v) : __x(emu::lowp::from_int<emu::lowp::Half>(v, emu::lowp::Mode::rn)) {}
    __half(const unsigned long v) : __x(emu::lowp::from_uint<emu::lowp::Half>(v, emu::lowp::Mode::rn)) {}
    __half(const long long v) : __x(emu::lowp::from_int<emu::lowp::Half>(v, emu::lowp::Mode::rn)) {}
    __half(const unsigned long long v) : __x(emu::lowp::from_uint<emu::lowp::Half>(v, emu::lowp::Mode::rn)) {}
    template <class I>
    I to_int_rz() const {
        return emu::detail::to_int<I>(emu::lowp::half_to_float(__x), emu::detail::Rounding::toward_zero);
    }
    operator signed char() const { return to_int_rz<signed char>(); }
    operator unsigned char() const { return to_int_rz<unsigned char>(); }
    operator char() const { return to_int_rz<char>(); }
    operator short() const { return to_int_rz<short>(); }
    operator unsigned short() const { return to_int_rz<unsigned short>(); }
    operator int() const { return to_int_rz<int>(); }
    operator unsigned int() const { return to_int_rz<unsigned int>(); }
    operator long() const { return to_int_rz<long>(); }
    operator unsigned long() const { return to_int_rz<unsigned long>(); }
    operator long long() const { return to_int_rz<long long>(); }
    operator unsigned long long() const { return to_int_rz<unsigned long long>(); }
    constexpr operator bool() const { return (__x & 0x7fffu) != 0; }
#endif
};

struct alignas(4) __half2 {
    __half x, y;

    __half2() = default;
    constexpr __half2(const __half& a, const __half& b) : x(a), y(b) {}
    constexpr __half2(const __half2_raw& r) : x(__half_raw{r.x}), y(__half_raw{r.y}) {}
    __half2& operator=(const __half2_raw& r) { return *this = __half2(r); }
    constexpr operator __half2_raw() const { return __half2_raw{x.__x, y.__x}; }
};

typedef __half half;
typedef __half2 half2;
typedef __half_raw __nv_half_raw;
typedef __half2_raw __nv_half2_raw;
typedef __half __nv_half;
typedef __half2 __nv_half2;

namespace emu::lowp {
template <>
struct traits<__half> {
    using fmt = Half;
    static float to_float(std::uint16_t bits) { return half_to_float(bits); }
};
}  // namespace emu::lowp

// ---- float and double ----------------------------------------------------------------------------------------
namespace emu::lowp {
inline __half half_from_float(const float a, const Mode m) { return make<__half>(from_float<Half>(a, m)); }
}  // namespace emu::lowp
inline __half __float2half(const float a) { return emu::lowp::half_from_float(a, emu::lowp::Mode::rn); }
inline __half __float2half_rn(const float a) { return emu::lowp::half_from_float(a, emu::lowp::Mode::rn); }
inline __half __float2half_rz(const float a) { return emu::lowp::half_from_float(a, emu::lowp::Mode::rz); }
inline __half __float2half_rd(const float a) { return emu::lowp::half_from_float(a, emu::lowp::Mode::rd); }
inline __half __float2half_ru(const float a) { return emu::lowp::half_from_float(a, emu::lowp::Mode::ru); }
// Rounds the double once (cvt.rn.f16.f64), not through float.
inline __half __double2half(const double a) {
    return emu::lowp::make<__half>(emu::lowp::from_double<emu::lowp::Half>(a, emu::lowp::Mode::rn));
}
inline float __half2float(const __half a) { return emu::lowp::half_to_float(a.__x); }

// ---- pairs ---------------------------------------------------------------------------------------------------
inline __half2 __float2half2_rn(const float a) {
    const __half h = __float2half(a);
    return __half2(h, h);
}
inline __half2 __floats2half2_rn(const float a, const float b) { return __half2(__float2half(a), __float2half(b)); }
inline __half2 __float22half2_rn(const float2 a) { return __floats2half2_rn(a.x, a.y); }
inline float2 __half22float2(const __half2 a) { return make_float2(__half2float(a.x), __half2float(a.y)); }
inline float __low2float(const __half2 a) { return __half2float(a.x); }
inline float __high2float(const __half2 a) { return __half2float(a.y); }
inline __half __low2half(const __half2 a) { return a.x; }
inline __half __high2half(const __half2 a) { return a.y; }
inline __half2 __halves2half2(const __half a, const __half b) { return __half2(a, b); }
inline __half2 make_half2(const __half x, const __half y) { return __half2(x, y); }
inline __half2 __half2half2(const __half a) { return __half2(a, a); }
inline __half2 __low2half2(const __half2 a) { return __half2(a.x, a.x); }
inline __half2 __high2half2(const __half2 a) { return __half2(a.y, a.y); }
inline __half2 __lows2half2(const __half2 a, const __half2 b) { return __half2(a.x, b.x); }
inline __half2 __highs2half2(const __half2 a, const __half2 b) { return __half2(a.y, b.y); }
inline __half2 __lowhigh2highlow(const __half2 a) { return __half2(a.y, a.x); }

// ---- bit reinterpretation ------------------------------------------------------------------------------------
inline short __half_as_short(const __half h) { return (short)h.__x; }
inline unsigned short __half_as_ushort(const __half h) { return h.__x; }
inline __half __short_as_half(const short i) { return emu::lowp::make<__half>((unsigned short)i); }
inline __half __ushort_as_half(const unsigned short i) { return emu::lowp::make<__half>(i); }

EMU_LOWP_INT_CONVERSIONS(__half, emu::lowp::Half, __half2, 2half)

// ---- arithmetic, comparisons, math, operators ----------------------------------------------------------------
EMU_LOWP_API(__half, __half2)
#if !defined(__CUDA_NO_HALF_OPERATORS__)
EMU_LOWP_OPERATORS(__half)
#endif
#if !defined(__CUDA_NO_HALF2_OPERATORS__)
EMU_LOWP_OPERATORS2(__half, __half2)
#endif

#define CUDART_INF_FP16 __ushort_as_half((unsigned short)0x7c00u)
#define CUDART_NAN_FP16 __ushort_as_half((unsigned short)0x7fffu)
#define CUDART_MIN_DENORM_FP16 __ushort_as_half((unsigned short)0x0001u)
#define CUDART_MAX_NORMAL_FP16 __ushort_as_half((unsigned short)0x7bffu)
#define CUDART_NEG_ZERO_FP16 __ushort_as_half((unsigned short)0x8000u)
#define CUDART_ZERO_FP16 __ushort_as_half((unsigned short)0x0000u)
#define CUDART_ONE_FP16 __ushort_as_half((unsigned short)0x3c00u)

// ---- atomics (runtime/atomics.cpp) ---------------------------------------------------------------------------
__half atomicAdd(__half* address, __half val);
__half2 atomicAdd(__half2* address, __half2 val);
