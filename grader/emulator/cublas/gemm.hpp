// The one GEMM every cuBLAS and cuBLASLt entry point of the emulator runs: column-major,
//   D = epilogue(alpha * op(A) * op(B) + beta * C)   per batch,
// with each element of op(A) op(B) accumulated in the compute type (fp32 or fp64, fused multiply-adds in k order),
// inputs widened exactly from fp32, fp16, bf16 or fp64, and the result rounded to nearest into D's type.
#pragma once
#include <cublas_api.h>

namespace emu::blas {

struct Matrix {
    const void* data = nullptr;
    cudaDataType_t type = CUDA_R_32F;
    long long ld = 0;
    long long stride = 0;  // between batches, in elements
};

enum class Epilogue { none, relu, bias, relu_bias };

struct Gemm {
    const char* api = "";  // the entry point, for messages
    bool trans_a = false, trans_b = false;
    long long m = 0, n = 0, k = 0, batch = 1;
    Matrix a, b, c;    // c is read only when beta != 0
    Matrix d;          // written (the same memory as c for the cuBLAS API)
    bool f64 = false;  // compute (and alpha/beta) in double, else in float
    double alpha = 1, beta = 0;
    Epilogue epilogue = Epilogue::none;
    const void* bias = nullptr;  // m elements of bias_type, added to every column
    cudaDataType_t bias_type = CUDA_R_32F;
};

// Checks the shapes and leading dimensions as cuBLAS documents them, that the types are a supported combination,
// and that every matrix lies inside one device allocation; then computes. Messages name g.api.
cublasStatus_t run(const Gemm& g);

// Prints that `api` is not emulated (once per name) and returns CUBLAS_STATUS_NOT_SUPPORTED.
cublasStatus_t not_supported(const char* api, const char* detail = nullptr);

// Whether the runtime's sticky error (a faulted kernel) makes every call fail.
bool device_failed();

// Whether `h` is a live handle from cublasCreate (cublas.cpp).
bool valid_handle(cublasHandle_t h);

}  // namespace emu::blas
