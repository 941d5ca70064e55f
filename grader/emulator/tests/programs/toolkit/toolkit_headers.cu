// Headers of the toolkit that public programs include one by one (driver_types.h, builtin_types.h,
// device_functions.h, math_functions.h, sm_60_atomic_functions.h) and cuComplex.h's complex arithmetic: a complex
// multiply-accumulate per element, magnitudes, a division, and a double atomicAdd of the magnitudes, checked against
// std::complex on the host.
#include <builtin_types.h>
#include <cuComplex.h>
#include <device_functions.h>
#include <driver_types.h>
#include <math_functions.h>
#include <sm_60_atomic_functions.h>

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
    std::printf("%d wrong results; sum of |a*conj(b)| = %.3f\n", bad, total);
    std::printf("%s\n", bad == 0 ? "Test PASSED" : "Test FAILED");
    cudaFree(da);
    cudaFree(db);
    cudaFree(dp);
    cudaFree(dq);
    cudaFree(dt);
    return bad == 0 ? 0 : 1;
}
