// Headers of the toolkit that public programs include one by one (driver_types.h, builtin_types.h,
// device_functions.h, math_functions.h, sm_60_atomic_functions.h) and cuComplex.h's complex arithmetic: a complex
// multiply-accumulate per element, magnitudes, a division, and a double atomicAdd of the magnitudes, checked against
// std::complex on the host. Then libcu++'s standard headers (cuda/std/limits, type_traits, complex, array, tuple,
// utility) in a kernel: a clamped polynomial on cuda::std::complex, a running minimum seeded with numeric_limits.
#include <builtin_types.h>
#include <cuComplex.h>
#include <device_functions.h>
#include <driver_types.h>
#include <math_functions.h>
#include <sm_60_atomic_functions.h>

#include <cuda/std/array>
#include <cuda/std/complex>
#include <cuda/std/limits>
#include <cuda/std/tuple>
#include <cuda/std/type_traits>
#include <cuda/std/utility>

#include <cmath>
#include <complex>
#include <cstdio>
#include <vector>

__global__ void complex_ops(const cuFloatComplex* a, const cuFloatComplex* b, cuFloatComplex* prod,
                            cuDoubleComplex* quot, double* total, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    cuFloatComplex p = cuCmulf(a[i], cuConjf(b[i]));
    prod[i] = cuCaddf(p, make_cuFloatComplex(1.0f, 0.0f));
    quot[i] = cuCdiv(cuComplexFloatToDouble(a[i]), cuComplexFloatToDouble(b[i]));
    atomicAdd(total, (double)cuCabsf(p));
}

template <class T>
__device__ cuda::std::pair<T, int> smallest(const cuda::std::array<T, 4>& values) {
    static_assert(cuda::std::is_floating_point<T>::value, "floating-point values");
    cuda::std::pair<T, int> best(cuda::std::numeric_limits<T>::max(), -1);
    for (int i = 0; i < 4; ++i)
        if (values[i] < best.first) best = cuda::std::make_pair(values[i], i);
    return best;
}

__global__ void std_ops(const float* x, float* out, int* where, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    cuda::std::complex<float> z(x[i], 0.5f);
    cuda::std::complex<float> w = z * z + cuda::std::complex<float>(1.0f, -1.0f);
    cuda::std::array<float, 4> candidates = {w.real(), w.imag(), cuda::std::abs(w), x[i]};
    auto [value, index] = smallest(candidates);
    auto packed = cuda::std::make_tuple(value, index);
    out[i] = cuda::std::get<0>(packed);
    where[i] = cuda::std::get<1>(packed);
}

int main() {
    const int n = 300;
    std::vector<cuFloatComplex> a(n), b(n), prod(n);
    std::vector<cuDoubleComplex> quot(n);
    for (int i = 0; i < n; ++i) {
        a[i] = make_cuFloatComplex(0.5f * i - 20.0f, 3.0f - 0.25f * i);
        b[i] = make_cuFloatComplex(1.0f + 0.125f * i, (i % 7) - 3.0f);
    }
    cuFloatComplex *da, *db, *dp;
    cuDoubleComplex* dq;
    double* dt;
    cudaMalloc(&da, n * sizeof(cuFloatComplex));
    cudaMalloc(&db, n * sizeof(cuFloatComplex));
    cudaMalloc(&dp, n * sizeof(cuFloatComplex));
    cudaMalloc(&dq, n * sizeof(cuDoubleComplex));
    cudaMalloc(&dt, sizeof(double));
    cudaMemset(dt, 0, sizeof(double));
    cudaMemcpy(da, a.data(), n * sizeof(cuFloatComplex), cudaMemcpyHostToDevice);
    cudaMemcpy(db, b.data(), n * sizeof(cuFloatComplex), cudaMemcpyHostToDevice);
    complex_ops<<<(n + 63) / 64, 64>>>(da, db, dp, dq, dt, n);
    cudaError_t err = cudaDeviceSynchronize();
    double total = 0;
    cudaMemcpy(prod.data(), dp, n * sizeof(cuFloatComplex), cudaMemcpyDeviceToHost);
    cudaMemcpy(quot.data(), dq, n * sizeof(cuDoubleComplex), cudaMemcpyDeviceToHost);
    cudaMemcpy(&total, dt, sizeof(double), cudaMemcpyDeviceToHost);

    int bad = err == cudaSuccess ? 0 : 1;
    double want_total = 0;
    for (int i = 0; i < n; ++i) {
        std::complex<double> x(cuCrealf(a[i]), cuCimagf(a[i])), y(cuCrealf(b[i]), cuCimagf(b[i]));
        std::complex<double> p = x * std::conj(y), q = x / y;
        want_total += std::abs(p);
        if (std::abs(std::complex<double>(cuCrealf(prod[i]), cuCimagf(prod[i])) - (p + 1.0)) > 1e-4 * (1 + std::abs(p)))
            ++bad;
        if (std::abs(std::complex<double>(cuCreal(quot[i]), cuCimag(quot[i])) - q) > 1e-12 * (1 + std::abs(q))) ++bad;
    }
    if (std::fabs(total - want_total) > 1e-4 * want_total) ++bad;

    std::vector<float> xs(n), mins(n);
    std::vector<int> where(n);
    for (int i = 0; i < n; ++i) xs[i] = 0.01f * i - 1.5f;
    float *dx, *dm;
    int* dw;
    cudaMalloc(&dx, n * sizeof(float));
    cudaMalloc(&dm, n * sizeof(float));
    cudaMalloc(&dw, n * sizeof(int));
    cudaMemcpy(dx, xs.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    std_ops<<<(n + 127) / 128, 128>>>(dx, dm, dw, n);
    if (cudaDeviceSynchronize() != cudaSuccess) ++bad;
    cudaMemcpy(mins.data(), dm, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(where.data(), dw, n * sizeof(int), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; ++i) {
        std::complex<float> z(xs[i], 0.5f), w = z * z + std::complex<float>(1.0f, -1.0f);
        const float c[4] = {w.real(), w.imag(), std::abs(w), xs[i]};
        int k = 0;
        for (int j = 1; j < 4; ++j)
            if (c[j] < c[k]) k = j;
        if (where[i] != k || std::fabs(mins[i] - c[k]) > 1e-5f * (1 + std::fabs(c[k]))) ++bad;
    }
    cudaFree(dx);
    cudaFree(dm);
    cudaFree(dw);
    std::printf("%d wrong results; sum of |a*conj(b)| = %.3f\n", bad, total);
    std::printf("%s\n", bad == 0 ? "Test PASSED" : "Test FAILED");
    cudaFree(da);
    cudaFree(db);
    cudaFree(dp);
    cudaFree(dq);
    cudaFree(dt);
    return bad == 0 ? 0 : 1;
}
