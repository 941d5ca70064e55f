// CUDA's 8-bit floating-point types (cuda_fp8.h) for emulator builds: the storage types, the __nv_cvt_* conversions
// (round to nearest even, with CUDA's saturation and NaN rules: emu/fp8_round.hpp) and the classes __nv_fp8_e4m3,
// __nv_fp8_e5m2 and their x2 / x4 packs, with CUDA's explicit constructors and conversion operators.
#pragma once
#define __CUDA_FP8_H__
#define __CUDA_FP8_TYPES_EXIST__

#include <cstdint>

#include "cuda_bf16.h"
#include "cuda_fp16.h"
#include "emu/fp8_round.hpp"
#include "emu/math.hpp"
#include "emu/vector_types.hpp"

typedef unsigned char __nv_fp8_storage_t;
typedef unsigned short int __nv_fp8x2_storage_t;
typedef unsigned int __nv_fp8x4_storage_t;

typedef enum __nv_saturation_t { __NV_NOSAT, __NV_SATFINITE } __nv_saturation_t;
typedef enum __nv_fp8_interpretation_t { __NV_E4M3, __NV_E5M2 } __nv_fp8_interpretation_t;

namespace emu::fp8 {
inline const Format& format(__nv_fp8_interpretation_t k) { return k == __NV_E5M2 ? kE5M2 : kE4M3; }
}  // namespace emu::fp8

// ---- conversions ---------------------------------------------------------------------------------------------
inline __nv_fp8_storage_t __nv_cvt_double_to_fp8(const double x, const __nv_saturation_t saturate,
                                                 const __nv_fp8_interpretation_t kind) {
    return emu::fp8::from_double(emu::fp8::format(kind), x, saturate == __NV_SATFINITE);
}
inline __nv_fp8_storage_t __nv_cvt_float_to_fp8(const float x, const __nv_saturation_t saturate,
                                                const __nv_fp8_interpretation_t kind) {
    return emu::fp8::from_float(emu::fp8::format(kind), x, saturate == __NV_SATFINITE);
}
inline __nv_fp8_storage_t __nv_cvt_halfraw_to_fp8(const __half_raw x, const __nv_saturation_t saturate,
                                                  const __nv_fp8_interpretation_t kind) {
    return __nv_cvt_float_to_fp8(emu::lowp::half_to_float(x.x), saturate, kind);
}
inline __nv_fp8_storage_t __nv_cvt_bfloat16raw_to_fp8(const __nv_bfloat16_raw x, const __nv_saturation_t saturate,
                                                      const __nv_fp8_interpretation_t kind) {
    return __nv_cvt_float_to_fp8(emu::lowp::bf16_to_float(x.x), saturate, kind);
}
// Pairs: the .y element goes to the high byte, as in CUDA.
inline __nv_fp8x2_storage_t __nv_cvt_double2_to_fp8x2(const double2 x, const __nv_saturation_t saturate,
                                                      const __nv_fp8_interpretation_t kind) {
    return static_cast<__nv_fp8x2_storage_t>(__nv_cvt_double_to_fp8(x.y, saturate, kind) << 8 |
                                             __nv_cvt_double_to_fp8(x.x, saturate, kind));
}
inline __nv_fp8x2_storage_t __nv_cvt_float2_to_fp8x2(const float2 x, const __nv_saturation_t saturate,
                                                     const __nv_fp8_interpretation_t kind) {
    return static_cast<__nv_fp8x2_storage_t>(__nv_cvt_float_to_fp8(x.y, saturate, kind) << 8 |
                                             __nv_cvt_float_to_fp8(x.x, saturate, kind));
}
inline __nv_fp8x2_storage_t __nv_cvt_halfraw2_to_fp8x2(const __half2_raw x, const __nv_saturation_t saturate,
                                                       const __nv_fp8_interpretation_t kind) {
    return static_cast<__nv_fp8x2_storage_t>(__nv_cvt_halfraw_to_fp8(__half_raw{x.y}, saturate, kind) << 8 |
                                             __nv_cvt_halfraw_to_fp8(__half_raw{x.x}, saturate, kind));
}
inline __nv_fp8x2_storage_t __nv_cvt_bfloat16raw2_to_fp8x2(const __nv_bfloat162_raw x, const __nv_saturation_t saturate,
                                                           const __nv_fp8_interpretation_t kind) {
    return static_cast<__nv_fp8x2_storage_t>(__nv_cvt_bfloat16raw_to_fp8(__nv_bfloat16_raw{x.y}, saturate, kind) << 8 |
                                             __nv_cvt_bfloat16raw_to_fp8(__nv_bfloat16_raw{x.x}, saturate, kind));
}
inline __half_raw __nv_cvt_fp8_to_halfraw(const __nv_fp8_storage_t x, const __nv_fp8_interpretation_t kind) {
    return __half_raw{emu::fp8::to_half_bits(emu::fp8::format(kind), x)};
}
inline __half2_raw __nv_cvt_fp8x2_to_halfraw2(const __nv_fp8x2_storage_t x, const __nv_fp8_interpretation_t kind) {
    return __half2_raw{__nv_cvt_fp8_to_halfraw(static_cast<__nv_fp8_storage_t>(x & 0xffu), kind).x,
                       __nv_cvt_fp8_to_halfraw(static_cast<__nv_fp8_storage_t>(x >> 8), kind).x};
}

// ---- the classes -----------------------------------------------------------------------------------------------
namespace emu::fp8 {

inline float to_float(__nv_fp8_storage_t x, __nv_fp8_interpretation_t kind) {
    return emu::lowp::half_to_float(__nv_cvt_fp8_to_halfraw(x, kind).x);
}
// Integers from an fp8 value: toward zero, saturating; NaN gives 0 (CUDA's rule for its fp8 integer conversions).
template <class I>
I to_integer(__nv_fp8_storage_t x, __nv_fp8_interpretation_t kind) {
    const float f = to_float(x, kind);
    return f != f ? I(0) : emu::detail::to_int<I>(f, emu::detail::Rounding::toward_zero);
}

// What the scalar classes share; K is the interpretation. Constructors saturate to finite values, as CUDA's do.
template <__nv_fp8_interpretation_t K>
struct scalar {
    __nv_fp8_storage_t __x;

    scalar() = default;
    explicit scalar(const float f) : __x(__nv_cvt_float_to_fp8(f, __NV_SATFINITE, K)) {}
    explicit scalar(const double f) : __x(__nv_cvt_double_to_fp8(f, __NV_SATFINITE, K)) {}
    explicit scalar(const __half f) : __x(__nv_cvt_halfraw_to_fp8(static_cast<__half_raw>(f), __NV_SATFINITE, K)) {}
    explicit scalar(const __nv_bfloat16 f)
        : __x(__nv_cvt_bfloat16raw_to_fp8(static_cast<__nv_bfloat16_raw>(f), __NV_SATFINITE, K)) {}
    // Integers go through float, as in CUDA.
    explicit scalar(const short v) : scalar(static_cast<float>(v)) {}
    explicit scalar(const unsigned short v) : scalar(static_cast<float>(v)) {}
    explicit scalar(const int v) : scalar(static_cast<float>(v)) {}
    explicit scalar(const unsigned int v) : scalar(static_cast<float>(v)) {}
    explicit scalar(const long v) : scalar(static_cast<float>(v)) {}
    explicit scalar(const unsigned long v) : scalar(static_cast<float>(v)) {}
    explicit scalar(const long long v) : scalar(static_cast<float>(v)) {}
    explicit scalar(const unsigned long long v) : scalar(static_cast<float>(v)) {}

#if !defined(__CUDA_NO_FP8_CONVERSION_OPERATORS__)
    explicit operator float() const { return to_float(__x, K); }
    explicit operator double() const { return static_cast<double>(to_float(__x, K)); }
    explicit operator __half() const { return __half(__nv_cvt_fp8_to_halfraw(__x, K)); }
    explicit operator __nv_bfloat16() const { return __float2bfloat16_rz(to_float(__x, K)); }
    explicit operator bool() const { return (__x & 0x7fu) != 0; }
    explicit operator char() const { return to_integer<char>(__x, K); }
    explicit operator signed char() const { return to_integer<signed char>(__x, K); }
    explicit operator unsigned char() const { return to_integer<unsigned char>(__x, K); }
    explicit operator short() const { return to_integer<short>(__x, K); }
    explicit operator unsigned short() const { return to_integer<unsigned short>(__x, K); }
    explicit operator int() const { return to_integer<int>(__x, K); }
    explicit operator unsigned int() const { return to_integer<unsigned int>(__x, K); }
    explicit operator long() const { return to_integer<long>(__x, K); }
    explicit operator unsigned long() const { return to_integer<unsigned long>(__x, K); }
    explicit operator long long() const { return to_integer<long long>(__x, K); }
    explicit operator unsigned long long() const { return to_integer<unsigned long long>(__x, K); }
#endif
};

template <__nv_fp8_interpretation_t K>
struct pair {
    __nv_fp8x2_storage_t __x;

    pair() = default;
    explicit pair(const float2 f) : __x(__nv_cvt_float2_to_fp8x2(f, __NV_SATFINITE, K)) {}
    explicit pair(const double2 f) : __x(__nv_cvt_double2_to_fp8x2(f, __NV_SATFINITE, K)) {}
    explicit pair(const __half2 f) : __x(__nv_cvt_halfraw2_to_fp8x2(static_cast<__half2_raw>(f), __NV_SATFINITE, K)) {}
    explicit pair(const __nv_bfloat162 f)
        : __x(__nv_cvt_bfloat16raw2_to_fp8x2(static_cast<__nv_bfloat162_raw>(f), __NV_SATFINITE, K)) {}
#if !defined(__CUDA_NO_FP8_CONVERSION_OPERATORS__)
    explicit operator __half2() const { return __half2(__nv_cvt_fp8x2_to_halfraw2(__x, K)); }
    explicit operator float2() const {
        return make_float2(to_float(static_cast<__nv_fp8_storage_t>(__x & 0xffu), K),
                           to_float(static_cast<__nv_fp8_storage_t>(__x >> 8), K));
    }
#endif
};

template <__nv_fp8_interpretation_t K>
struct quad {
    __nv_fp8x4_storage_t __x;

    quad() = default;
    explicit quad(const float4 f)
        : __x(static_cast<__nv_fp8x4_storage_t>(__nv_cvt_float2_to_fp8x2(make_float2(f.x, f.y), __NV_SATFINITE, K)) |
              static_cast<__nv_fp8x4_storage_t>(__nv_cvt_float2_to_fp8x2(make_float2(f.z, f.w), __NV_SATFINITE, K))
                  << 16) {}
    explicit quad(const double4 f)
        : __x(static_cast<__nv_fp8x4_storage_t>(__nv_cvt_double2_to_fp8x2(make_double2(f.x, f.y), __NV_SATFINITE, K)) |
              static_cast<__nv_fp8x4_storage_t>(__nv_cvt_double2_to_fp8x2(make_double2(f.z, f.w), __NV_SATFINITE, K))
                  << 16) {}
    quad(const __half2 lo, const __half2 hi)
        : __x(static_cast<__nv_fp8x4_storage_t>(
                  __nv_cvt_halfraw2_to_fp8x2(static_cast<__half2_raw>(lo), __NV_SATFINITE, K)) |
              static_cast<__nv_fp8x4_storage_t>(
                  __nv_cvt_halfraw2_to_fp8x2(static_cast<__half2_raw>(hi), __NV_SATFINITE, K))
                  << 16) {}
    quad(const __nv_bfloat162 lo, const __nv_bfloat162 hi)
        : __x(static_cast<__nv_fp8x4_storage_t>(
                  __nv_cvt_bfloat16raw2_to_fp8x2(static_cast<__nv_bfloat162_raw>(lo), __NV_SATFINITE, K)) |
              static_cast<__nv_fp8x4_storage_t>(
                  __nv_cvt_bfloat16raw2_to_fp8x2(static_cast<__nv_bfloat162_raw>(hi), __NV_SATFINITE, K))
                  << 16) {}
#if !defined(__CUDA_NO_FP8_CONVERSION_OPERATORS__)
    explicit operator float4() const {
        return make_float4(to_float(static_cast<__nv_fp8_storage_t>(__x & 0xffu), K),
                           to_float(static_cast<__nv_fp8_storage_t>((__x >> 8) & 0xffu), K),
                           to_float(static_cast<__nv_fp8_storage_t>((__x >> 16) & 0xffu), K),
                           to_float(static_cast<__nv_fp8_storage_t>(__x >> 24), K));
    }
#endif
};

}  // namespace emu::fp8

struct __nv_fp8_e4m3 : emu::fp8::scalar<__NV_E4M3> {
    using emu::fp8::scalar<__NV_E4M3>::scalar;
    __nv_fp8_e4m3() = default;
};
struct __nv_fp8_e5m2 : emu::fp8::scalar<__NV_E5M2> {
    using emu::fp8::scalar<__NV_E5M2>::scalar;
    __nv_fp8_e5m2() = default;
};
struct __nv_fp8x2_e4m3 : emu::fp8::pair<__NV_E4M3> {
    using emu::fp8::pair<__NV_E4M3>::pair;
    __nv_fp8x2_e4m3() = default;
};
struct __nv_fp8x2_e5m2 : emu::fp8::pair<__NV_E5M2> {
    using emu::fp8::pair<__NV_E5M2>::pair;
    __nv_fp8x2_e5m2() = default;
};
struct __nv_fp8x4_e4m3 : emu::fp8::quad<__NV_E4M3> {
    using emu::fp8::quad<__NV_E4M3>::quad;
    __nv_fp8x4_e4m3() = default;
};
struct __nv_fp8x4_e5m2 : emu::fp8::quad<__NV_E5M2> {
    using emu::fp8::quad<__NV_E5M2>::quad;
    __nv_fp8x4_e5m2() = default;
};
