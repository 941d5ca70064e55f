// cuBLAS's helper copies between host and device (cublasSetVector, cublasGetMatrix, … and their Async forms):
// strided vectors and column-major matrices, which the samples (simpleCUBLAS, matrixMulCUBLAS) use instead of
// cudaMemcpy. Each is one cudaMemcpy2D: a vector of n elements with stride inc is n rows of one element, inc elements
// apart; a matrix is `cols` rows of `rows` elements, ld elements apart. The runtime checks the device side.
#include <cublas_v2.h>

namespace {

cublasStatus_t copy2d(void* dst, long long dst_pitch, const void* src, long long src_pitch, long long width,
                      long long height, cudaMemcpyKind kind, cudaStream_t stream, bool async) {
    if (width == 0 || height == 0) return CUBLAS_STATUS_SUCCESS;
    const cudaError_t err = async ? cudaMemcpy2DAsync(dst, dst_pitch, src, src_pitch, width, height, kind, stream)
                                  : cudaMemcpy2D(dst, dst_pitch, src, src_pitch, width, height, kind);
    // cuBLAS's documented status for an access to GPU memory that failed.
    return err == cudaSuccess ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_MAPPING_ERROR;
}

// The checks cuBLAS documents: elemSize and the strides (or leading dimensions) must be positive, the counts not
// negative; a leading dimension shorter than a column is invalid too.
cublasStatus_t vector(int n, int elem, const void* x, int incx, void* y, int incy, cudaMemcpyKind kind,
                      cudaStream_t stream, bool async) {
    if (n < 0 || elem <= 0 || incx <= 0 || incy <= 0) return CUBLAS_STATUS_INVALID_VALUE;
    return copy2d(y, 1LL * incy * elem, x, 1LL * incx * elem, elem, n, kind, stream, async);
}

cublasStatus_t matrix(int rows, int cols, int elem, const void* a, int lda, void* b, int ldb, cudaMemcpyKind kind,
                      cudaStream_t stream, bool async) {
    if (rows < 0 || cols < 0 || elem <= 0 || lda <= 0 || ldb <= 0 || lda < rows || ldb < rows)
        return CUBLAS_STATUS_INVALID_VALUE;
    return copy2d(b, 1LL * ldb * elem, a, 1LL * lda * elem, 1LL * rows * elem, cols, kind, stream, async);
}

}  // namespace

cublasStatus_t cublasSetVector(int n, int elemSize, const void* x, int incx, void* devicePtr, int incy) {
    return vector(n, elemSize, x, incx, devicePtr, incy, cudaMemcpyHostToDevice, nullptr, false);
}
cublasStatus_t cublasGetVector(int n, int elemSize, const void* x, int incx, void* y, int incy) {
    return vector(n, elemSize, x, incx, y, incy, cudaMemcpyDeviceToHost, nullptr, false);
}
cublasStatus_t cublasSetMatrix(int rows, int cols, int elemSize, const void* A, int lda, void* B, int ldb) {
    return matrix(rows, cols, elemSize, A, lda, B, ldb, cudaMemcpyHostToDevice, nullptr, false);
}
cublasStatus_t cublasGetMatrix(int rows, int cols, int elemSize, const void* A, int lda, void* B, int ldb) {
    return matrix(rows, cols, elemSize, A, lda, B, ldb, cudaMemcpyDeviceToHost, nullptr, false);
}
cublasStatus_t cublasSetVectorAsync(int n, int elemSize, const void* hostPtr, int incx, void* devicePtr, int incy,
                                    cudaStream_t stream) {
    return vector(n, elemSize, hostPtr, incx, devicePtr, incy, cudaMemcpyHostToDevice, stream, true);
}
cublasStatus_t cublasGetVectorAsync(int n, int elemSize, const void* devicePtr, int incx, void* hostPtr, int incy,
                                    cudaStream_t stream) {
    return vector(n, elemSize, devicePtr, incx, hostPtr, incy, cudaMemcpyDeviceToHost, stream, true);
}
cublasStatus_t cublasSetMatrixAsync(int rows, int cols, int elemSize, const void* A, int lda, void* B, int ldb,
                                    cudaStream_t stream) {
    return matrix(rows, cols, elemSize, A, lda, B, ldb, cudaMemcpyHostToDevice, stream, true);
}
cublasStatus_t cublasGetMatrixAsync(int rows, int cols, int elemSize, const void* A, int lda, void* B, int ldb,
                                    cudaStream_t stream) {
    return matrix(rows, cols, elemSize, A, lda, B, ldb, cudaMemcpyDeviceToHost, stream, true);
}
