// CUDA's bfloat16 (__nv_bfloat16, __nv_bfloat162) for emulator builds: same names, layouts, implicit conversions
// and operators as nvcc sees them in cuda_bf16.h, with conversions bit-exact with CUDA's (emu/lowp_round.hpp):
// float -> bf16 rounds to nearest even (or in the named mode), overflows to inf, and turns every NaN into the
// canonical 0x7fff; bf16 -> float is exact and keeps a NaN's bits. Usable in host code too.
// Honours __CUDA_NO_BFLOAT16_CONVERSIONS__, __CUDA_NO_BFLOAT16_OPERATORS__ and __CUDA_NO_BFLOAT162_OPERATORS__.
#pragma once
// CUDA's guard and feature macros, which code tests before using __nv_bfloat16.
#define __CUDA_BF16_H__
#define __CUDA_BF16_TYPES_EXIST__

#include <cstdint>

#include "cuda_fp16.h"  // CUDA's cuda_bf16.h includes it too, so code that includes only this one still sees __half
#include "emu/lowp_ops.hpp"
#include "emu/lowp_round.hpp"
#include "emu/math.hpp"
#include "emu/vector_types.hpp"

struct __nv_bfloat16_raw {
    unsigned short x;
};
struct __nv_bfloat162_raw {
    unsigned short x, y;
};

// Trivially copyable with a trivial default constructor (the value is left uninitialised, as in CUDA), so it can
// live in __shared__ arrays and in structs copied as 16-byte vectors.
struct alignas(2) __nv_bfloat16 {
    unsigned short __x;

    __nv_bfloat16() = default;
    constexpr __nv_bfloat16(const __nv_bfloat16_raw& r) : __x(r.x) {}
    __nv_bfloat16& operator=(const __nv_bfloat16_raw& r) {
        __x = r.x;
        return *this;
    }
    constexpr operator __nv_bfloat16_raw() const { return __nv_bfloat16_raw{__x}; }

#if !defined(__CUDA_NO_BFLOAT16_CONVERSIONS__)
    __nv_bfloat16(const float f) : __x(emu::lowp::from_float<emu::lowp::BF16>(f, emu::lowp::Mode::rn)) {}
    __nv_bfloat16(const double d) : __x(emu::lowp::from_double<emu::lowp::BF16>(d, emu::lowp::Mode::rn)) {}
    __nv_bfloat16& operator=(const float f) { return *this = __nv_bfloat16(f); }
    __nv_bfloat16& operator=(const double d) { return *this = __nv_bfloat16(d); }
    operator float() const { return emu::lowp::bf16_to_float(__x); }
    // Integers convert in round-to-nearest; out of __nv_bfloat16, toward zero and saturating. Having both float and
    // integer conversions makes mixed expressions such as `b * 2.0f` ambiguous, exactly as under nvcc.
    __nv_bfloat16(const short v) : __x(emu::lowp::from_int<emu::lowp::BF16>(v, emu::lowp::Mode::rn)) {}
    __nv_bfloat16(const unsigned short v) : __x(emu::lowp::from_uint<emu::lowp::BF16>(v, emu::lowp::Mode::rn)) {}
    __nv_bfloat16(const int v) : __x(emu::lowp::from_int<emu::lowp::BF16>(v, emu::lowp::Mode::rn)) {}
    __nv_bfloat16(const unsigned int v) : __x(emu::lowp::from_uint<emu::lowp::BF16>(v, emu::lowp::Mode::rn)) {}
    __nv_bfloat16(const long v) : __x(emu::lowp::from_int<emu::lowp::BF16>(v, emu::lowp::Mode::rn)) {}
    __nv_bfloat16(const unsigned long v) : __x(emu::lowp::from_uint<emu::lowp::BF16>(v, emu::lowp::Mode::rn)) {}
    __nv_bfloat16(const long long v) : __x(emu::lowp::from_int<emu::lowp::BF16>(v, emu::lowp::Mode::rn)) {}
    __nv_bfloat16(const unsigned long long v) : __x(emu::lowp::from_uint<emu::lowp::BF16>(v, emu::lowp::Mode::rn)) {}
    template <class I>
    I to_int_rz() const {
        return emu::detail::to_int<I>(emu::lowp::bf16_to_float(__x), emu::detail::Rounding::toward_zero);
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

struct alignas(4) __nv_bfloat162 {
    __nv_bfloat16 x, y;

    __nv_bfloat162() = default;
    constexpr __nv_bfloat162(const __nv_bfloat16& a, const __nv_bfloat16& b) : x(a), y(b) {}
    constexpr __nv_bfloat162(const __nv_bfloat162_raw& r) : x(__nv_bfloat16_raw{r.x}), y(__nv_bfloat16_raw{r.y}) {}
    __nv_bfloat162& operator=(const __nv_bfloat162_raw& r) { return *this = __nv_bfloat162(r); }
    constexpr operator __nv_bfloat162_raw() const { return __nv_bfloat162_raw{x.__x, y.__x}; }
};

typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

namespace emu::lowp {
template <>
struct traits<__nv_bfloat16> {
    using fmt = BF16;
    static float to_float(std::uint16_t bits) { return bf16_to_float(bits); }
};
}  // namespace emu::lowp

// ---- float and double ----------------------------------------------------------------------------------------
inline __nv_bfloat16 __float2bfloat16(const float a) {
    return emu::lowp::make<__nv_bfloat16>(emu::lowp::from_float<emu::lowp::BF16>(a, emu::lowp::Mode::rn));
}
inline __nv_bfloat16 __float2bfloat16_rn(const float a) { return __float2bfloat16(a); }
inline __nv_bfloat16 __float2bfloat16_rz(const float a) {
    return emu::lowp::make<__nv_bfloat16>(emu::lowp::from_float<emu::lowp::BF16>(a, emu::lowp::Mode::rz));
}
inline __nv_bfloat16 __float2bfloat16_rd(const float a) {
    return emu::lowp::make<__nv_bfloat16>(emu::lowp::from_float<emu::lowp::BF16>(a, emu::lowp::Mode::rd));
}
inline __nv_bfloat16 __float2bfloat16_ru(const float a) {
    return emu::lowp::make<__nv_bfloat16>(emu::lowp::from_float<emu::lowp::BF16>(a, emu::lowp::Mode::ru));
}
// Rounds the double once (cvt.rn.bf16.f64 semantics), not through float.
inline __nv_bfloat16 __double2bfloat16(const double a) {
    return emu::lowp::make<__nv_bfloat16>(emu::lowp::from_double<emu::lowp::BF16>(a, emu::lowp::Mode::rn));
}
inline float __bfloat162float(const __nv_bfloat16 a) { return emu::lowp::bf16_to_float(a.__x); }

// ---- pairs ---------------------------------------------------------------------------------------------------
inline __nv_bfloat162 __float2bfloat162_rn(const float a) {
    const __nv_bfloat16 b = __float2bfloat16(a);
    return __nv_bfloat162(b, b);
}
inline __nv_bfloat162 __floats2bfloat162_rn(const float a, const float b) {
    return __nv_bfloat162(__float2bfloat16(a), __float2bfloat16(b));
}
inline __nv_bfloat162 __float22bfloat162_rn(const float2 a) { return __floats2bfloat162_rn(a.x, a.y); }
inline float2 __bfloat1622float2(const __nv_bfloat162 a) {
    return make_float2(__bfloat162float(a.x), __bfloat162float(a.y));
}
inline float __low2float(const __nv_bfloat162 a) { return __bfloat162float(a.x); }
inline float __high2float(const __nv_bfloat162 a) { return __bfloat162float(a.y); }
inline __nv_bfloat16 __low2bfloat16(const __nv_bfloat162 a) { return a.x; }
inline __nv_bfloat16 __high2bfloat16(const __nv_bfloat162 a) { return a.y; }
inline __nv_bfloat162 __halves2bfloat162(const __nv_bfloat16 a, const __nv_bfloat16 b) { return __nv_bfloat162(a, b); }
inline __nv_bfloat162 make_bfloat162(const __nv_bfloat16 x, const __nv_bfloat16 y) { return __nv_bfloat162(x, y); }
inline __nv_bfloat162 __bfloat162bfloat162(const __nv_bfloat16 a) { return __nv_bfloat162(a, a); }
inline __nv_bfloat162 __low2bfloat162(const __nv_bfloat162 a) { return __nv_bfloat162(a.x, a.x); }
inline __nv_bfloat162 __high2bfloat162(const __nv_bfloat162 a) { return __nv_bfloat162(a.y, a.y); }
inline __nv_bfloat162 __lows2bfloat162(const __nv_bfloat162 a, const __nv_bfloat162 b) {
    return __nv_bfloat162(a.x, b.x);
}
inline __nv_bfloat162 __highs2bfloat162(const __nv_bfloat162 a, const __nv_bfloat162 b) {
    return __nv_bfloat162(a.y, b.y);
}
inline __nv_bfloat162 __lowhigh2highlow(const __nv_bfloat162 a) { return __nv_bfloat162(a.y, a.x); }

// ---- bit reinterpretation ------------------------------------------------------------------------------------
inline short __bfloat16_as_short(const __nv_bfloat16 h) { return (short)h.__x; }
inline unsigned short __bfloat16_as_ushort(const __nv_bfloat16 h) { return h.__x; }
inline __nv_bfloat16 __short_as_bfloat16(const short i) { return emu::lowp::make<__nv_bfloat16>((unsigned short)i); }
inline __nv_bfloat16 __ushort_as_bfloat16(const unsigned short i) { return emu::lowp::make<__nv_bfloat16>(i); }

EMU_LOWP_INT_CONVERSIONS(__nv_bfloat16, emu::lowp::BF16, __bfloat162, 2bfloat16)

// ---- arithmetic, comparisons, math, operators (same names as for __half, overloaded) -------------------------
EMU_LOWP_API(__nv_bfloat16, __nv_bfloat162)
#if !defined(__CUDA_NO_BFLOAT16_OPERATORS__)
EMU_LOWP_OPERATORS(__nv_bfloat16)
#endif
#if !defined(__CUDA_NO_BFLOAT162_OPERATORS__)
EMU_LOWP_OPERATORS2(__nv_bfloat16, __nv_bfloat162)
#endif

// ---- atomics (runtime/atomics.cpp) ---------------------------------------------------------------------------
__nv_bfloat16 atomicAdd(__nv_bfloat16* address, __nv_bfloat16 val);
__nv_bfloat162 atomicAdd(__nv_bfloat162* address, __nv_bfloat162 val);
