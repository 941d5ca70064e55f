// The emulator's cuBLAS and cuBLASLt: argument checks as cuBLAS documents them, the allocation check on every
// matrix, the refusals of what is not emulated, and small results worked out by hand.
#include <cublasLt.h>
#include <cublas_v2.h>

#include <vector>

#include "workbook_catch.hpp"
#include "exec_helpers.hpp"

namespace {

template <class T>
T* device_copy(const std::vector<T>& h) {
    T* d = nullptr;
    REQUIRE(cudaMalloc(&d, h.size() * sizeof(T)) == cudaSuccess);
    REQUIRE(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice) == cudaSuccess);
    return d;
}
template <class T>
std::vector<T> host_copy(const T* d, std::size_t n) {
    std::vector<T> h(n);
    REQUIRE(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost) == cudaSuccess);
    return h;
}

}  // namespace

TEST_CASE("cublasSgemm: a 2x2 product by hand, transposes, and documented argument errors") {
    exec_test::reset_device();
    cublasHandle_t h;
    REQUIRE(cublasCreate(&h) == CUBLAS_STATUS_SUCCESS);
    // Column-major A = [1 3; 2 4], B = [5 7; 6 8].
    float* A = device_copy(std::vector<float>{1, 2, 3, 4});
    float* B = device_copy(std::vector<float>{5, 6, 7, 8});
    float* C = device_copy(std::vector<float>{1, 1, 1, 1});
    const float one = 1, two = 2, zero = 0;
    REQUIRE(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, A, 2, B, 2, &two, C, 2) == CUBLAS_STATUS_SUCCESS);
    // A*B = [23 31; 34 46], plus 2*C.
    CHECK(host_copy(C, 4) == std::vector<float>{25, 36, 33, 48});
    REQUIRE(cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, 2, 2, 2, &one, A, 2, B, 2, &zero, C, 2) == CUBLAS_STATUS_SUCCESS);
    // A^T*B = [17 23; 39 53].
    CHECK(host_copy(C, 4) == std::vector<float>{17, 39, 23, 53});
    CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, -1, 2, 2, &one, A, 2, B, 2, &zero, C, 2) ==
          CUBLAS_STATUS_INVALID_VALUE);
    CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, A, 1, B, 2, &zero, C, 2) ==
          CUBLAS_STATUS_INVALID_VALUE);
    CHECK(cublasSgemm(h, static_cast<cublasOperation_t>(7), CUBLAS_OP_N, 2, 2, 2, &one, A, 2, B, 2, &zero, C, 2) ==
          CUBLAS_STATUS_INVALID_VALUE);
    CHECK(cublasSgemm(nullptr, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, A, 2, B, 2, &zero, C, 2) ==
          CUBLAS_STATUS_NOT_INITIALIZED);
    CHECK(emu::take_diagnostics().empty());

    // A matrix reaching past its allocation (k = 3 with a 2x2 B), or host memory, is reported and fails.
    CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 3, &one, A, 2, B, 3, &zero, C, 2) ==
          CUBLAS_STATUS_EXECUTION_FAILED);
    auto d = emu::take_diagnostics();
    REQUIRE(d.size() == 1);
    CHECK(exec_test::any_contains(d, "[out-of-bounds] cublasSgemm: matrix A (2 x 3, leading dimension 2)"));
    std::vector<float> host(4, 0);
    CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, host.data(), 2, B, 2, &zero, C, 2) ==
          CUBLAS_STATUS_EXECUTION_FAILED);
    CHECK(exec_test::any_contains(emu::take_diagnostics(), "is not inside one device allocation"));
    cudaFree(A);
    cudaFree(B);
    cudaFree(C);
    CHECK(cublasDestroy(h) == CUBLAS_STATUS_SUCCESS);
    CHECK(cublasDestroy(h) == CUBLAS_STATUS_NOT_INITIALIZED);
}

TEST_CASE("cublasGemmEx: half output rounds once; unsupported combinations say so") {
    exec_test::reset_device();
    cublasHandle_t h;
    REQUIRE(cublasCreate(&h) == CUBLAS_STATUS_SUCCESS);
    // 1x1x3: 1 + 2^-11 + 2^-11 is exact in fp32, and rounds to 1 + 2^-10 in half (a tie would go to 1 per term).
    const std::vector<__half> a{__float2half(1.0f), __float2half(1.0f), __float2half(1.0f)};
    const std::vector<__half> b{__float2half(1.0f), __float2half(0.00048828125f), __float2half(0.00048828125f)};
    __half* A = device_copy(a);
    __half* B = device_copy(b);
    __half* C = device_copy(std::vector<__half>{__float2half(0.0f)});
    const float one = 1, zero = 0;
    REQUIRE(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 3, &one, A, CUDA_R_16F, 1, B, CUDA_R_16F, 3, &zero, C,
                         CUDA_R_16F, 1, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_SUCCESS);
    CHECK(__half2float(host_copy(C, 1)[0]) == 1.0009765625f);
    CHECK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 3, &one, A, CUDA_R_16F, 1, B, CUDA_R_16BF, 3, &zero, C,
                       CUDA_R_16F, 1, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_NOT_SUPPORTED);
    CHECK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 3, &one, A, CUDA_R_16F, 1, B, CUDA_R_16F, 3, &zero, C,
                       CUDA_R_16F, 1, CUBLAS_COMPUTE_16F, CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_NOT_SUPPORTED);
    CHECK(cublasSgeam(h, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, &one, nullptr, 1, &zero, nullptr, 1, nullptr, 1) ==
          CUBLAS_STATUS_NOT_SUPPORTED);
    cudaFree(A);
    cudaFree(B);
    cudaFree(C);
    cublasDestroy(h);
}

TEST_CASE("cublasLtMatmul: layouts must describe one problem; RELU epilogue; refused attributes") {
    exec_test::reset_device();
    cublasLtHandle_t lt;
    REQUIRE(cublasLtCreate(&lt) == CUBLAS_STATUS_SUCCESS);
    cublasLtMatmulDesc_t op;
    REQUIRE(cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F) == CUBLAS_STATUS_SUCCESS);
    const cublasOperation_t t = CUBLAS_OP_T;
    REQUIRE(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &t, sizeof t) == CUBLAS_STATUS_SUCCESS);
    const cublasLtEpilogue_t relu = CUBLASLT_EPILOGUE_RELU;
    REQUIRE(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_EPILOGUE, &relu, sizeof relu) ==
            CUBLAS_STATUS_SUCCESS);
    CHECK(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_EPILOGUE, &relu, 2) == CUBLAS_STATUS_INVALID_VALUE);
    const void* scale = nullptr;
    CHECK(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &scale, sizeof scale) ==
          CUBLAS_STATUS_NOT_SUPPORTED);
    // A stored 2x2 and transposed; B 2x1; D = relu(A^T B) with A = [1 -3; 2 -4] column-major.
    float* A = device_copy(std::vector<float>{1, 2, -3, -4});
    float* B = device_copy(std::vector<float>{1, 1});
    float* D = device_copy(std::vector<float>{9, 9});
    cublasLtMatrixLayout_t la, lb, ld, bad;
    REQUIRE(cublasLtMatrixLayoutCreate(&la, CUDA_R_32F, 2, 2, 2) == CUBLAS_STATUS_SUCCESS);
    REQUIRE(cublasLtMatrixLayoutCreate(&lb, CUDA_R_32F, 2, 1, 2) == CUBLAS_STATUS_SUCCESS);
    REQUIRE(cublasLtMatrixLayoutCreate(&ld, CUDA_R_32F, 2, 1, 2) == CUBLAS_STATUS_SUCCESS);
    REQUIRE(cublasLtMatrixLayoutCreate(&bad, CUDA_R_32F, 3, 1, 3) == CUBLAS_STATUS_SUCCESS);
    const float one = 1, zero = 0;
    REQUIRE(cublasLtMatmul(lt, op, &one, A, la, B, lb, &zero, D, ld, D, ld, nullptr, nullptr, 0, nullptr) ==
            CUBLAS_STATUS_SUCCESS);
    // A^T B = [1+2, -3-4] = [3, -7]; relu gives [3, 0].
    CHECK(host_copy(D, 2) == std::vector<float>{3, 0});
    CHECK(cublasLtMatmul(lt, op, &one, A, la, B, lb, &zero, D, bad, D, bad, nullptr, nullptr, 0, nullptr) ==
          CUBLAS_STATUS_INVALID_VALUE);
    const std::int32_t row = CUBLASLT_ORDER_ROW;
    REQUIRE(cublasLtMatrixLayoutSetAttribute(lb, CUBLASLT_MATRIX_LAYOUT_ORDER, &row, sizeof row) ==
            CUBLAS_STATUS_SUCCESS);
    CHECK(cublasLtMatmul(lt, op, &one, A, la, B, lb, &zero, D, ld, D, ld, nullptr, nullptr, 0, nullptr) ==
          CUBLAS_STATUS_NOT_SUPPORTED);
    for (auto l : {la, lb, ld, bad}) cublasLtMatrixLayoutDestroy(l);
    cublasLtMatmulDescDestroy(op);
    cublasLtDestroy(lt);
    cudaFree(A);
    cudaFree(B);
    cudaFree(D);
}
