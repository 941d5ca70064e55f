// The cuBLAS handle API of the emulator: handles and settings, the GEMM entry points (on emu::blas::run), gemv (the
// same GEMM with a vector: level2.cpp), the level-1 vector routines (level1.cpp), and the common other routines,
// which say they are not emulated.
#include <cublas_v2.h>

#include <set>

#include "api_state.hpp"
#include "gemm.hpp"

struct cublasContext {
    cudaStream_t stream = nullptr;
    cublasMath_t math = CUBLAS_DEFAULT_MATH;
    cublasPointerMode_t pointer_mode = CUBLAS_POINTER_MODE_HOST;
};

namespace {

std::set<cublasHandle_t>& handles() {
    static std::set<cublasHandle_t> h;
    return h;
}
bool valid(cublasHandle_t h) { return h && handles().count(h); }

bool transposed(cublasOperation_t op) { return op == CUBLAS_OP_T || op == CUBLAS_OP_C; }
bool valid_op(cublasOperation_t op) { return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C; }

// fp32 and fp64 compute types (the pedantic and fast variants compute the same here, in full precision).
bool compute_f32(cublasComputeType_t t) {
    return t == CUBLAS_COMPUTE_32F || t == CUBLAS_COMPUTE_32F_PEDANTIC || t == CUBLAS_COMPUTE_32F_FAST_16F ||
           t == CUBLAS_COMPUTE_32F_FAST_16BF || t == CUBLAS_COMPUTE_32F_FAST_TF32;
}
bool compute_f64(cublasComputeType_t t) { return t == CUBLAS_COMPUTE_64F || t == CUBLAS_COMPUTE_64F_PEDANTIC; }

emu::blas::Gemm make(const char* api, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const void* A,
                     cudaDataType_t at, int lda, long long sa, const void* B, cudaDataType_t bt, int ldb, long long sb,
                     void* C, cudaDataType_t ct, int ldc, long long sc, int batch) {
    emu::blas::Gemm g;
    g.api = api;
    g.trans_a = transposed(ta);
    g.trans_b = transposed(tb);
    g.m = m;
    g.n = n;
    g.k = k;
    g.batch = batch;
    g.a = {A, at, lda, sa};
    g.b = {B, bt, ldb, sb};
    g.c = {C, ct, ldc, sc};
    g.d = {C, ct, ldc, sc};
    return g;
}

cublasStatus_t gemm_ex(const char* api, cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                       int k, const void* alpha, const void* A, cudaDataType_t at, int lda, long long sa, const void* B,
                       cudaDataType_t bt, int ldb, long long sb, const void* beta, void* C, cudaDataType_t ct, int ldc,
                       long long sc, int batch, cublasComputeType_t compute) {
    if (!valid(h)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!valid_op(ta) || !valid_op(tb) || !alpha || !beta) return CUBLAS_STATUS_INVALID_VALUE;
    emu::blas::Gemm g = make(api, ta, tb, m, n, k, A, at, lda, sa, B, bt, ldb, sb, C, ct, ldc, sc, batch);
    if (compute_f64(compute)) {
        g.f64 = true;
        g.alpha = *static_cast<const double*>(alpha);
        g.beta = *static_cast<const double*>(beta);
    } else if (compute_f32(compute)) {
        g.alpha = *static_cast<const float*>(alpha);
        g.beta = *static_cast<const float*>(beta);
    } else {
        return emu::blas::not_supported(api, "compute types other than CUBLAS_COMPUTE_32F* and CUBLAS_COMPUTE_64F*");
    }
    return emu::blas::run(g);
}

}  // namespace

bool emu::blas::valid_handle(cublasHandle_t h) { return valid(h); }

cublasStatus_t cublasCreate(cublasHandle_t* handle) {
    if (!handle) return CUBLAS_STATUS_INVALID_VALUE;
    if (emu::blas::device_failed()) return CUBLAS_STATUS_NOT_INITIALIZED;
    *handle = new cublasContext;
    handles().insert(*handle);
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasDestroy(cublasHandle_t handle) {
    if (!valid(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    handles().erase(handle);
    delete handle;
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasGetVersion(cublasHandle_t handle, int* version) {
    if (!valid(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!version) return CUBLAS_STATUS_INVALID_VALUE;
    *version = CUBLAS_VERSION;
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasGetProperty(libraryPropertyType type, int* value) {
    if (!value) return CUBLAS_STATUS_INVALID_VALUE;
    *value = type == MAJOR_VERSION ? CUBLAS_VER_MAJOR : type == MINOR_VERSION ? CUBLAS_VER_MINOR : CUBLAS_VER_PATCH;
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasSetStream(cublasHandle_t handle, cudaStream_t stream) {
    if (!valid(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!emu::rt::stream_ok(stream)) return CUBLAS_STATUS_INVALID_VALUE;
    handle->stream = stream;
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasGetStream(cublasHandle_t handle, cudaStream_t* stream) {
    if (!valid(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!stream) return CUBLAS_STATUS_INVALID_VALUE;
    *stream = handle->stream;
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode) {
    if (!valid(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    handle->math = mode;
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasGetMathMode(cublasHandle_t handle, cublasMath_t* mode) {
    if (!valid(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!mode) return CUBLAS_STATUS_INVALID_VALUE;
    *mode = handle->math;
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasSetPointerMode(cublasHandle_t handle, cublasPointerMode_t mode) {
    if (!valid(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (mode != CUBLAS_POINTER_MODE_HOST && mode != CUBLAS_POINTER_MODE_DEVICE) return CUBLAS_STATUS_INVALID_VALUE;
    handle->pointer_mode = mode;
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasGetPointerMode(cublasHandle_t handle, cublasPointerMode_t* mode) {
    if (!valid(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!mode) return CUBLAS_STATUS_INVALID_VALUE;
    *mode = handle->pointer_mode;
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasSetAtomicsMode(cublasHandle_t handle, cublasAtomicsMode_t) {
    return valid(handle) ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_NOT_INITIALIZED;
}
cublasStatus_t cublasSetWorkspace(cublasHandle_t handle, void*, std::size_t) {
    return valid(handle) ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_NOT_INITIALIZED;
}

const char* cublasGetStatusName(cublasStatus_t status) {
    switch (status) {
        case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
        case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
        case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
        case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
        case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
        case CUBLAS_STATUS_MAPPING_ERROR: return "CUBLAS_STATUS_MAPPING_ERROR";
        case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
        case CUBLAS_STATUS_INTERNAL_ERROR: return "CUBLAS_STATUS_INTERNAL_ERROR";
        case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
        case CUBLAS_STATUS_LICENSE_ERROR: return "CUBLAS_STATUS_LICENSE_ERROR";
    }
    return "CUBLAS_STATUS_UNKNOWN";
}
const char* cublasGetStatusString(cublasStatus_t status) {
    switch (status) {
        case CUBLAS_STATUS_SUCCESS: return "success";
        case CUBLAS_STATUS_NOT_INITIALIZED: return "the library was not initialized";
        case CUBLAS_STATUS_ALLOC_FAILED: return "the resource allocation failed";
        case CUBLAS_STATUS_INVALID_VALUE: return "an invalid numeric value was used as an argument";
        case CUBLAS_STATUS_ARCH_MISMATCH: return "an absent device architectural feature is required";
        case CUBLAS_STATUS_MAPPING_ERROR: return "an access to GPU memory space failed";
        case CUBLAS_STATUS_EXECUTION_FAILED: return "the GPU program failed to execute";
        case CUBLAS_STATUS_INTERNAL_ERROR: return "an internal operation failed";
        case CUBLAS_STATUS_NOT_SUPPORTED: return "the functionality requested is not supported";
        case CUBLAS_STATUS_LICENSE_ERROR: return "error detected trying to check the license";
    }
    return "unknown error";
}

// ---- GEMM ------------------------------------------------------------------------------------------------------
cublasStatus_t cublasSgemm(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                           int k, const float* alpha, const float* A, int lda, const float* B, int ldb,
                           const float* beta, float* C, int ldc) {
    return gemm_ex("cublasSgemm", handle, transa, transb, m, n, k, alpha, A, CUDA_R_32F, lda, 0, B, CUDA_R_32F, ldb, 0,
                   beta, C, CUDA_R_32F, ldc, 0, 1, CUBLAS_COMPUTE_32F);
}
cublasStatus_t cublasDgemm(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                           int k, const double* alpha, const double* A, int lda, const double* B, int ldb,
                           const double* beta, double* C, int ldc) {
    return gemm_ex("cublasDgemm", handle, transa, transb, m, n, k, alpha, A, CUDA_R_64F, lda, 0, B, CUDA_R_64F, ldb, 0,
                   beta, C, CUDA_R_64F, ldc, 0, 1, CUBLAS_COMPUTE_64F);
}
cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                         int m, int n, int k, const float* alpha, const float* A, int lda,
                                         long long strideA, const float* B, int ldb, long long strideB,
                                         const float* beta, float* C, int ldc, long long strideC, int batchCount) {
    return gemm_ex("cublasSgemmStridedBatched", handle, transa, transb, m, n, k, alpha, A, CUDA_R_32F, lda, strideA, B,
                   CUDA_R_32F, ldb, strideB, beta, C, CUDA_R_32F, ldc, strideC, batchCount, CUBLAS_COMPUTE_32F);
}
cublasStatus_t cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                            int k, const void* alpha, const void* A, cudaDataType_t Atype, int lda, const void* B,
                            cudaDataType_t Btype, int ldb, const void* beta, void* C, cudaDataType_t Ctype, int ldc,
                            cublasComputeType_t computeType, cublasGemmAlgo_t) {
    return gemm_ex("cublasGemmEx", handle, transa, transb, m, n, k, alpha, A, Atype, lda, 0, B, Btype, ldb, 0, beta, C,
                   Ctype, ldc, 0, 1, computeType);
}
cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                          int m, int n, int k, const void* alpha, const void* A, cudaDataType_t Atype,
                                          int lda, long long strideA, const void* B, cudaDataType_t Btype, int ldb,
                                          long long strideB, const void* beta, void* C, cudaDataType_t Ctype, int ldc,
                                          long long strideC, int batchCount, cublasComputeType_t computeType,
                                          cublasGemmAlgo_t) {
    return gemm_ex("cublasGemmStridedBatchedEx", handle, transa, transb, m, n, k, alpha, A, Atype, lda, strideA, B,
                   Btype, ldb, strideB, beta, C, Ctype, ldc, strideC, batchCount, computeType);
}
cublasStatus_t cublasGemmBatchedEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
                                   int n, int k, const void* alpha, const void* const Aarray[], cudaDataType_t Atype,
                                   int lda, const void* const Barray[], cudaDataType_t Btype, int ldb, const void* beta,
                                   void* const Carray[], cudaDataType_t Ctype, int ldc, int batchCount,
                                   cublasComputeType_t computeType, cublasGemmAlgo_t) {
    if (batchCount < 0) return CUBLAS_STATUS_INVALID_VALUE;
    if (batchCount > 0 && (!Aarray || !Barray || !Carray)) return CUBLAS_STATUS_INVALID_VALUE;
    for (int b = 0; b < batchCount; ++b) {
        const cublasStatus_t s =
            gemm_ex("cublasGemmBatchedEx", handle, transa, transb, m, n, k, alpha, Aarray[b], Atype, lda, 0, Barray[b],
                    Btype, ldb, 0, beta, Carray[b], Ctype, ldc, 0, 1, computeType);
        if (s != CUBLAS_STATUS_SUCCESS) return s;
    }
    return valid(handle) ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_NOT_INITIALIZED;
}

// ---- matrix-vector: y = alpha * op(A) x + beta * y as the GEMM y^T = alpha * x^T op(A)^T + beta * y^T ----------
// x and y are 1 x k and 1 x n matrices whose leading dimension is their increment, so strided vectors need no copy
// and every element goes through the GEMM's checks (each vector and A inside one device allocation).
namespace {
template <typename T>
cublasStatus_t gemv(const char* name, cudaDataType type, cublasComputeType_t compute, cublasHandle_t handle,
                    cublasOperation_t trans, int m, int n, const T* alpha, const T* A, int lda, const T* x, int incx,
                    const T* beta, T* y, int incy) {
    if (!valid(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!valid_op(trans) || m < 0 || n < 0 || lda < (m > 1 ? m : 1) || incx <= 0 || incy <= 0)
        return incx < 0 || incy < 0 ? emu::blas::not_supported(name, "negative increments")
                                    : CUBLAS_STATUS_INVALID_VALUE;
    const int rows = transposed(trans) ? n : m, cols = transposed(trans) ? m : n;
    return gemm_ex(name, handle, CUBLAS_OP_N, transposed(trans) ? CUBLAS_OP_N : CUBLAS_OP_T, 1, rows, cols, alpha, x,
                   type, incx, 0, A, type, lda, 0, beta, y, type, incy, 0, 1, compute);
}
}  // namespace
cublasStatus_t cublasSgemv(cublasHandle_t handle, cublasOperation_t trans, int m, int n, const float* alpha,
                           const float* A, int lda, const float* x, int incx, const float* beta, float* y, int incy) {
    return gemv("cublasSgemv", CUDA_R_32F, CUBLAS_COMPUTE_32F, handle, trans, m, n, alpha, A, lda, x, incx, beta, y,
                incy);
}
cublasStatus_t cublasDgemv(cublasHandle_t handle, cublasOperation_t trans, int m, int n, const double* alpha,
                           const double* A, int lda, const double* x, int incx, const double* beta, double* y,
                           int incy) {
    return gemv("cublasDgemv", CUDA_R_64F, CUBLAS_COMPUTE_64F, handle, trans, m, n, alpha, A, lda, x, incx, beta, y,
                incy);
}

// ---- not emulated ----------------------------------------------------------------------------------------------
#define EMU_CUBLAS_NOT_EMULATED(name, ...) \
    cublasStatus_t name(__VA_ARGS__) { return emu::blas::not_supported(#name); }

EMU_CUBLAS_NOT_EMULATED(cublasHgemm, cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const __half*,
                        const __half*, int, const __half*, int, const __half*, __half*, int)
EMU_CUBLAS_NOT_EMULATED(cublasSgemmBatched, cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                        const float*, const float* const[], int, const float* const[], int, const float*,
                        float* const[], int, int)
EMU_CUBLAS_NOT_EMULATED(cublasSgeam, cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, const float*,
                        const float*, int, const float*, const float*, int, float*, int)
EMU_CUBLAS_NOT_EMULATED(cublasStrsm, cublasHandle_t, cublasSideMode_t, cublasFillMode_t, cublasOperation_t,
                        cublasDiagType_t, int, int, const float*, const float*, int, float*, int)
EMU_CUBLAS_NOT_EMULATED(cublasSsyrk, cublasHandle_t, cublasFillMode_t, cublasOperation_t, int, int, const float*,
                        const float*, int, const float*, float*, int)
