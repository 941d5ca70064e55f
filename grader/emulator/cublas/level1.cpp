// cuBLAS's level-1 routines on vectors (axpy, scal, copy, dot, nrm2, asum, iamax) for float and double, as
// cuBLAS documents them: n elements `inc` apart, nothing done for n <= 0, results (dot, nrm2, asum, the 1-based
// index of iamax) written through a host or device pointer alike (one memory here). Each vector must lie inside one
// device allocation, else an out-of-bounds diagnostic naming the call and CUBLAS_STATUS_EXECUTION_FAILED, as for the
// GEMM. Sums are accumulated in the vectors' type in index order, so they can differ from a GPU's tree order in
// the last bits.
#include <cublas_v2.h>

#include <cmath>
#include <string>

#include "exec.hpp"
#include "gemm.hpp"

namespace {

// n elements `inc` apart from p lie in one device allocation; reports which vector does not.
template <class T>
bool vector_ok(const char* api, const char* name, const T* p, int n, int inc) {
    if (n <= 0) return true;
    const std::size_t extent = (static_cast<std::size_t>(n) - 1) * static_cast<std::size_t>(inc) + 1;
    if (p && emu::rt::device_range_ok(p, extent * sizeof(T))) return true;
    emu::rt::report(emu::rt::Diagnostic{
        "out-of-bounds",
        std::string(api) + ": vector " + name + " (" + std::to_string(n) + " elements, increment " +
            std::to_string(inc) +
            ") is not inside one device allocation (cudaMalloc, cudaMallocManaged, "
            "cudaMallocHost)\n    hint: the pointer, n or the increment is wrong, or the vector is host memory; "
            "cuBLAS reads and writes device memory only",
        emu::rt::Severity::error});
    return false;
}

// The checks every routine makes before touching memory: the handle, the sticky error, positive increments.
cublasStatus_t precheck(const char* api, cublasHandle_t h, int incx, int incy = 1) {
    if (!emu::blas::valid_handle(h)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (emu::blas::device_failed()) return CUBLAS_STATUS_EXECUTION_FAILED;
    if (incx <= 0 || incy <= 0) return emu::blas::not_supported(api, "increments that are not positive");
    return CUBLAS_STATUS_SUCCESS;
}

template <class T>
cublasStatus_t axpy(const char* api, cublasHandle_t h, int n, const T* alpha, const T* x, int incx, T* y, int incy) {
    if (const cublasStatus_t s = precheck(api, h, incx, incy)) return s;
    if (n <= 0) return CUBLAS_STATUS_SUCCESS;
    if (!alpha) return CUBLAS_STATUS_INVALID_VALUE;
    if (!vector_ok(api, "x", x, n, incx) || !vector_ok(api, "y", y, n, incy)) return CUBLAS_STATUS_EXECUTION_FAILED;
    for (int i = 0; i < n; ++i) y[i * incy] += *alpha * x[i * incx];
    return CUBLAS_STATUS_SUCCESS;
}
template <class T>
cublasStatus_t scal(const char* api, cublasHandle_t h, int n, const T* alpha, T* x, int incx) {
    if (const cublasStatus_t s = precheck(api, h, incx)) return s;
    if (n <= 0) return CUBLAS_STATUS_SUCCESS;
    if (!alpha) return CUBLAS_STATUS_INVALID_VALUE;
    if (!vector_ok(api, "x", x, n, incx)) return CUBLAS_STATUS_EXECUTION_FAILED;
    for (int i = 0; i < n; ++i) x[i * incx] *= *alpha;
    return CUBLAS_STATUS_SUCCESS;
}
template <class T>
cublasStatus_t copy(const char* api, cublasHandle_t h, int n, const T* x, int incx, T* y, int incy) {
    if (const cublasStatus_t s = precheck(api, h, incx, incy)) return s;
    if (n <= 0) return CUBLAS_STATUS_SUCCESS;
    if (!vector_ok(api, "x", x, n, incx) || !vector_ok(api, "y", y, n, incy)) return CUBLAS_STATUS_EXECUTION_FAILED;
    for (int i = 0; i < n; ++i) y[i * incy] = x[i * incx];
    return CUBLAS_STATUS_SUCCESS;
}
template <class T>
cublasStatus_t dot(const char* api, cublasHandle_t h, int n, const T* x, int incx, const T* y, int incy, T* result) {
    if (const cublasStatus_t s = precheck(api, h, incx, incy)) return s;
    if (!result) return CUBLAS_STATUS_INVALID_VALUE;
    if (!vector_ok(api, "x", x, n, incx) || !vector_ok(api, "y", y, n, incy)) return CUBLAS_STATUS_EXECUTION_FAILED;
    T sum = 0;
    for (int i = 0; i < n; ++i) sum += x[i * incx] * y[i * incy];
    *result = sum;
    return CUBLAS_STATUS_SUCCESS;
}
template <class T>
cublasStatus_t nrm2(const char* api, cublasHandle_t h, int n, const T* x, int incx, T* result) {
    if (const cublasStatus_t s = precheck(api, h, incx)) return s;
    if (!result) return CUBLAS_STATUS_INVALID_VALUE;
    if (!vector_ok(api, "x", x, n, incx)) return CUBLAS_STATUS_EXECUTION_FAILED;
    double sum = 0;  // in double: no overflow for large float elements, as cuBLAS scales to avoid
    for (int i = 0; i < n; ++i) sum += double(x[i * incx]) * double(x[i * incx]);
    *result = static_cast<T>(std::sqrt(sum));
    return CUBLAS_STATUS_SUCCESS;
}
template <class T>
cublasStatus_t asum(const char* api, cublasHandle_t h, int n, const T* x, int incx, T* result) {
    if (const cublasStatus_t s = precheck(api, h, incx)) return s;
    if (!result) return CUBLAS_STATUS_INVALID_VALUE;
    if (!vector_ok(api, "x", x, n, incx)) return CUBLAS_STATUS_EXECUTION_FAILED;
    T sum = 0;
    for (int i = 0; i < n; ++i) sum += std::fabs(x[i * incx]);
    *result = sum;
    return CUBLAS_STATUS_SUCCESS;
}
// The first (1-based) index of the largest magnitude, 0 for n <= 0, as cuBLAS returns it.
template <class T>
cublasStatus_t iamax(const char* api, cublasHandle_t h, int n, const T* x, int incx, int* result) {
    if (const cublasStatus_t s = precheck(api, h, incx)) return s;
    if (!result) return CUBLAS_STATUS_INVALID_VALUE;
    if (!vector_ok(api, "x", x, n, incx)) return CUBLAS_STATUS_EXECUTION_FAILED;
    int best = 0;
    for (int i = 1; i < n; ++i)
        if (std::fabs(x[i * incx]) > std::fabs(x[best * incx])) best = i;
    *result = n > 0 ? best + 1 : 0;
    return CUBLAS_STATUS_SUCCESS;
}

}  // namespace

cublasStatus_t cublasSaxpy(cublasHandle_t h, int n, const float* a, const float* x, int incx, float* y, int incy) {
    return axpy("cublasSaxpy", h, n, a, x, incx, y, incy);
}
cublasStatus_t cublasDaxpy(cublasHandle_t h, int n, const double* a, const double* x, int incx, double* y, int incy) {
    return axpy("cublasDaxpy", h, n, a, x, incx, y, incy);
}
cublasStatus_t cublasSscal(cublasHandle_t h, int n, const float* a, float* x, int incx) {
    return scal("cublasSscal", h, n, a, x, incx);
}
cublasStatus_t cublasDscal(cublasHandle_t h, int n, const double* a, double* x, int incx) {
    return scal("cublasDscal", h, n, a, x, incx);
}
cublasStatus_t cublasScopy(cublasHandle_t h, int n, const float* x, int incx, float* y, int incy) {
    return copy("cublasScopy", h, n, x, incx, y, incy);
}
cublasStatus_t cublasDcopy(cublasHandle_t h, int n, const double* x, int incx, double* y, int incy) {
    return copy("cublasDcopy", h, n, x, incx, y, incy);
}
cublasStatus_t cublasSdot(cublasHandle_t h, int n, const float* x, int incx, const float* y, int incy, float* r) {
    return dot("cublasSdot", h, n, x, incx, y, incy, r);
}
cublasStatus_t cublasDdot(cublasHandle_t h, int n, const double* x, int incx, const double* y, int incy, double* r) {
    return dot("cublasDdot", h, n, x, incx, y, incy, r);
}
cublasStatus_t cublasSnrm2(cublasHandle_t h, int n, const float* x, int incx, float* r) {
    return nrm2("cublasSnrm2", h, n, x, incx, r);
}
cublasStatus_t cublasDnrm2(cublasHandle_t h, int n, const double* x, int incx, double* r) {
    return nrm2("cublasDnrm2", h, n, x, incx, r);
}
cublasStatus_t cublasSasum(cublasHandle_t h, int n, const float* x, int incx, float* r) {
    return asum("cublasSasum", h, n, x, incx, r);
}
cublasStatus_t cublasDasum(cublasHandle_t h, int n, const double* x, int incx, double* r) {
    return asum("cublasDasum", h, n, x, incx, r);
}
cublasStatus_t cublasIsamax(cublasHandle_t h, int n, const float* x, int incx, int* r) {
    return iamax("cublasIsamax", h, n, x, incx, r);
}
cublasStatus_t cublasIdamax(cublasHandle_t h, int n, const double* x, int incx, int* r) {
    return iamax("cublasIdamax", h, n, x, incx, r);
}
