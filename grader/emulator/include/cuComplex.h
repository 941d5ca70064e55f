// CUDA's cuComplex.h for emulator builds: single- and double-precision complex numbers as float2 and double2, with
// CUDA's functions on them (host and device alike). cuCabs scales by the larger part before the square root, as
// CUDA's does, so it neither overflows nor underflows where |z| is representable; cuCdiv divides by the larger of the
// divisor's parts first, as CUDA's does.
#pragma once
#include <cmath>

#include <cuda_runtime.h>
#include <vector_types.h>

typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
typedef cuFloatComplex cuComplex;

namespace emu::complex_detail {
template <class T>
inline T magnitude(T re, T im) {
    const T a = std::fabs(re), b = std::fabs(im);
    const T big = a > b ? a : b, small = a > b ? b : a;
    if (big == T(0) || std::isinf(big)) return big + small;
    const T q = small / big;
    return big * std::sqrt(T(1) + q * q);
}
template <class C, class T>
inline C divide(C x, C y) {
    const T s = std::fabs(y.x) + std::fabs(y.y);
    const T inv = T(1) / s;
    const T ar = x.x * inv, ai = x.y * inv, br = y.x * inv, bi = y.y * inv;
    const T d = T(1) / (br * br + bi * bi);
    C r;
    r.x = (ar * br + ai * bi) * d;
    r.y = (ai * br - ar * bi) * d;
    return r;
}
}  // namespace emu::complex_detail

__host__ __device__ inline float cuCrealf(cuFloatComplex z) { return z.x; }
__host__ __device__ inline float cuCimagf(cuFloatComplex z) { return z.y; }
__host__ __device__ inline cuFloatComplex make_cuFloatComplex(float re, float im) {
    cuFloatComplex z;
    z.x = re;
    z.y = im;
    return z;
}
__host__ __device__ inline cuFloatComplex make_cuComplex(float re, float im) { return make_cuFloatComplex(re, im); }
__host__ __device__ inline cuFloatComplex cuConjf(cuFloatComplex z) { return make_cuFloatComplex(z.x, -z.y); }
__host__ __device__ inline cuFloatComplex cuCaddf(cuFloatComplex a, cuFloatComplex b) {
    return make_cuFloatComplex(a.x + b.x, a.y + b.y);
}
__host__ __device__ inline cuFloatComplex cuCsubf(cuFloatComplex a, cuFloatComplex b) {
    return make_cuFloatComplex(a.x - b.x, a.y - b.y);
}
__host__ __device__ inline cuFloatComplex cuCmulf(cuFloatComplex a, cuFloatComplex b) {
    return make_cuFloatComplex(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
__host__ __device__ inline cuFloatComplex cuCdivf(cuFloatComplex a, cuFloatComplex b) {
    return emu::complex_detail::divide<cuFloatComplex, float>(a, b);
}
__host__ __device__ inline float cuCabsf(cuFloatComplex z) { return emu::complex_detail::magnitude(z.x, z.y); }
// x * y + d, as CUDA's (two multiply-adds per part).
__host__ __device__ inline cuFloatComplex cuCfmaf(cuFloatComplex x, cuFloatComplex y, cuFloatComplex d) {
    const float re = x.x * y.x + d.x, im = x.x * y.y + d.y;
    return make_cuFloatComplex(-(x.y * y.y) + re, x.y * y.x + im);
}

__host__ __device__ inline double cuCreal(cuDoubleComplex z) { return z.x; }
__host__ __device__ inline double cuCimag(cuDoubleComplex z) { return z.y; }
__host__ __device__ inline cuDoubleComplex make_cuDoubleComplex(double re, double im) {
    cuDoubleComplex z;
    z.x = re;
    z.y = im;
    return z;
}
__host__ __device__ inline cuDoubleComplex cuConj(cuDoubleComplex z) { return make_cuDoubleComplex(z.x, -z.y); }
__host__ __device__ inline cuDoubleComplex cuCadd(cuDoubleComplex a, cuDoubleComplex b) {
    return make_cuDoubleComplex(a.x + b.x, a.y + b.y);
}
__host__ __device__ inline cuDoubleComplex cuCsub(cuDoubleComplex a, cuDoubleComplex b) {
    return make_cuDoubleComplex(a.x - b.x, a.y - b.y);
}
__host__ __device__ inline cuDoubleComplex cuCmul(cuDoubleComplex a, cuDoubleComplex b) {
    return make_cuDoubleComplex(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
__host__ __device__ inline cuDoubleComplex cuCdiv(cuDoubleComplex a, cuDoubleComplex b) {
    return emu::complex_detail::divide<cuDoubleComplex, double>(a, b);
}
__host__ __device__ inline double cuCabs(cuDoubleComplex z) { return emu::complex_detail::magnitude(z.x, z.y); }
__host__ __device__ inline cuDoubleComplex cuCfma(cuDoubleComplex x, cuDoubleComplex y, cuDoubleComplex d) {
    const double re = x.x * y.x + d.x, im = x.x * y.y + d.y;
    return make_cuDoubleComplex(-(x.y * y.y) + re, x.y * y.x + im);
}
__host__ __device__ inline cuDoubleComplex cuComplexFloatToDouble(cuFloatComplex z) {
    return make_cuDoubleComplex(z.x, z.y);
}
__host__ __device__ inline cuFloatComplex cuComplexDoubleToFloat(cuDoubleComplex z) {
    return make_cuFloatComplex(static_cast<float>(z.x), static_cast<float>(z.y));
}
