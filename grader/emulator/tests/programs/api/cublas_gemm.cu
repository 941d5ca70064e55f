// A GEMM driver in the style of the cuBLAS samples: single-precision GEMM with every transpose combination and
// padded leading dimensions (copied with cublasSetMatrix/SetVector and read back with GetVector/GetMatrixAsync), mixed-precision cublasGemmEx (fp16 and bf16 inputs, fp32 output), a strided batch, and a
// cuBLASLt matmul with a bias + ReLU epilogue, gemv (both transposes, strided vectors, float and double, as the
// samples' UnifiedMemoryStreams calls cublasDgemv) and the level-1 routines; every result is checked against a plain
// CPU loop.
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <vector>

#include "common.cuh"

#define CHECK_CUBLAS(call)                                                                      \
  do {                                                                                          \
    const cublasStatus_t st_ = (call);                                                          \
    if (st_ != CUBLAS_STATUS_SUCCESS) {                                                         \
      std::printf("cuBLAS error %s at %s:%d\n", cublasGetStatusName(st_), __FILE__, __LINE__); \
      std::exit(1);                                                                             \
    }                                                                                           \
  } while (0)

// Column-major reference: C = alpha * op(A) op(B) + beta * C.
void reference_gemm(bool ta, bool tb, int m, int n, int k, float alpha, const std::vector<float>& A, int lda,
                    const std::vector<float>& B, int ldb, float beta, std::vector<double>& C, int ldc) {
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      double acc = 0;
      for (int p = 0; p < k; ++p) acc += double(ta ? A[p + i * lda] : A[i + p * lda]) * (tb ? B[j + p * ldb] : B[p + j * ldb]);
      C[i + j * ldc] = alpha * acc + beta * C[i + j * ldc];
    }
}

float value(int i, int salt) { return static_cast<float>(((i * 131 + salt * 71) % 17) - 8) / 8.0f; }

int main() {
  Tally t{"cublas_gemm"};
  cublasHandle_t handle;
  CHECK_CUBLAS(cublasCreate(&handle));
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  CHECK_CUBLAS(cublasSetStream(handle, stream));

  const int m = 37, n = 29, k = 45, pad = 3;
  for (int ta = 0; ta < 2; ++ta)
    for (int tb = 0; tb < 2; ++tb) {
      const int lda = (ta ? k : m) + pad, ldb = (tb ? n : k) + pad, ldc = m + pad;
      std::vector<float> A(lda * (ta ? m : k)), B(ldb * (tb ? k : n)), C(ldc * n);
      for (size_t i = 0; i < A.size(); ++i) A[i] = value(int(i), 1);
      for (size_t i = 0; i < B.size(); ++i) B[i] = value(int(i), 2);
      for (size_t i = 0; i < C.size(); ++i) C[i] = value(int(i), 3);
      std::vector<double> want(C.begin(), C.end());
      const float alpha = 1.5f, beta = -0.5f;
      reference_gemm(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, want, ldc);
      float *dA, *dB, *dC;
      CHECK_CUDA(cudaMalloc(&dA, A.size() * sizeof(float)));
      CHECK_CUDA(cudaMalloc(&dB, B.size() * sizeof(float)));
      CHECK_CUDA(cudaMalloc(&dC, C.size() * sizeof(float)));
      // A as the samples copy it, the stored rows of each column only (cuBLAS never reads the padding); B as a vector.
      CHECK_CUBLAS(cublasSetMatrix(ta ? k : m, ta ? m : k, sizeof(float), A.data(), lda, dA, lda));
      CHECK_CUBLAS(cublasSetVector(static_cast<int>(B.size()), sizeof(float), B.data(), 1, dB, 1));
      CHECK_CUDA(cudaMemcpy(dC, C.data(), C.size() * sizeof(float), cudaMemcpyHostToDevice));
      CHECK_CUBLAS(cublasSgemm(handle, ta ? CUBLAS_OP_T : CUBLAS_OP_N, tb ? CUBLAS_OP_T : CUBLAS_OP_N, m, n, k, &alpha,
                               dA, lda, dB, ldb, &beta, dC, ldc));
      CHECK_CUDA(cudaMemcpy(C.data(), dC, C.size() * sizeof(float), cudaMemcpyDeviceToHost));
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < ldc; ++i) {
          // The padding rows below m are not part of C: cuBLAS must leave them alone.
          const double w = i < m ? want[i + j * ldc] : value(i + j * ldc, 3);
          t.close("sgemm", i + j * ldc, C[i + j * ldc], w, 1e-5);
        }
      // C's first row is a vector with stride ldc: read it back with cublasGetVector, and as a 1 x n matrix.
      std::vector<float> row(n), row2(n);
      CHECK_CUBLAS(cublasGetVector(n, sizeof(float), dC, ldc, row.data(), 1));
      CHECK_CUBLAS(cublasGetMatrixAsync(1, n, sizeof(float), dC, ldc, row2.data(), 1, stream));
      CHECK_CUDA(cudaStreamSynchronize(stream));
      for (int j = 0; j < n; ++j) {
        t.close("getvector", j, row[j], C[j * ldc], 0);
        t.close("getmatrix", j, row2[j], C[j * ldc], 0);
      }
      cudaFree(dA);
      cudaFree(dB);
      cudaFree(dC);
    }

  // Mixed precision: fp16 and bf16 inputs (exact in both: multiples of 1/8 up to 1), fp32 accumulate and output.
  {
    const int mm = 64, nn = 48, kk = 80;
    std::vector<float> A(mm * kk), B(kk * nn);
    std::vector<__half> Ah(A.size()), Bh(B.size());
    std::vector<__nv_bfloat16> Ab(A.size()), Bb(B.size());
    for (size_t i = 0; i < A.size(); ++i) { A[i] = value(int(i), 4); Ah[i] = __float2half(A[i]); Ab[i] = __float2bfloat16(A[i]); }
    for (size_t i = 0; i < B.size(); ++i) { B[i] = value(int(i), 5); Bh[i] = __float2half(B[i]); Bb[i] = __float2bfloat16(B[i]); }
    std::vector<double> want(mm * nn, 0.0);
    reference_gemm(false, false, mm, nn, kk, 1.0f, A, mm, B, kk, 0.0f, want, mm);
    void *dAh, *dBh, *dAb, *dBb;
    float* dC;
    CHECK_CUDA(cudaMalloc(&dAh, Ah.size() * 2));
    CHECK_CUDA(cudaMalloc(&dBh, Bh.size() * 2));
    CHECK_CUDA(cudaMalloc(&dAb, Ab.size() * 2));
    CHECK_CUDA(cudaMalloc(&dBb, Bb.size() * 2));
    CHECK_CUDA(cudaMalloc(&dC, mm * nn * sizeof(float)));
    CHECK_CUDA(cudaMemcpyAsync(dAh, Ah.data(), Ah.size() * 2, cudaMemcpyHostToDevice, stream));
    CHECK_CUDA(cudaMemcpyAsync(dBh, Bh.data(), Bh.size() * 2, cudaMemcpyHostToDevice, stream));
    CHECK_CUDA(cudaMemcpyAsync(dAb, Ab.data(), Ab.size() * 2, cudaMemcpyHostToDevice, stream));
    CHECK_CUDA(cudaMemcpyAsync(dBb, Bb.data(), Bb.size() * 2, cudaMemcpyHostToDevice, stream));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    // beta = 0: C is not read, so NaN garbage in it must not leak into the result.
    CHECK_CUDA(cudaMemset(dC, 0xff, mm * nn * sizeof(float)));
    const float one = 1.0f, zero = 0.0f;
    std::vector<float> C(mm * nn);
    for (int variant = 0; variant < 2; ++variant) {
      const cudaDataType_t type = variant == 0 ? CUDA_R_16F : CUDA_R_16BF;
      CHECK_CUBLAS(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, mm, nn, kk, &one, variant == 0 ? dAh : dAb, type, mm,
                                variant == 0 ? dBh : dBb, type, kk, &zero, dC, CUDA_R_32F, mm, CUBLAS_COMPUTE_32F,
                                CUBLAS_GEMM_DEFAULT_TENSOR_OP));
      CHECK_CUDA(cudaMemcpy(C.data(), dC, C.size() * sizeof(float), cudaMemcpyDeviceToHost));
      for (int i = 0; i < mm * nn; ++i) t.close(variant == 0 ? "gemmex_f16" : "gemmex_bf16", i, C[i], want[i], 1e-6);
    }

    // Strided batch: two problems, the second B shifted by one column.
    const int batch = 2;
    float *dA32, *dB32, *dCb;
    CHECK_CUDA(cudaMalloc(&dA32, A.size() * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&dB32, (B.size() + kk) * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&dCb, batch * mm * nn * sizeof(float)));
    std::vector<float> Bext(B);
    for (int i = 0; i < kk; ++i) Bext.push_back(value(i, 6));
    CHECK_CUDA(cudaMemcpy(dA32, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dB32, Bext.data(), Bext.size() * sizeof(float), cudaMemcpyHostToDevice));
    CHECK_CUBLAS(cublasGemmStridedBatchedEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, mm, nn, kk, &one, dA32, CUDA_R_32F, mm, 0,
                                            dB32, CUDA_R_32F, kk, kk, &zero, dCb, CUDA_R_32F, mm, mm * nn, batch,
                                            CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    std::vector<float> Cb(batch * mm * nn);
    CHECK_CUDA(cudaMemcpy(Cb.data(), dCb, Cb.size() * sizeof(float), cudaMemcpyDeviceToHost));
    std::vector<float> Bshift(Bext.begin() + kk, Bext.end());
    std::vector<double> want2(mm * nn, 0.0);
    reference_gemm(false, false, mm, nn, kk, 1.0f, A, mm, Bshift, kk, 0.0f, want2, mm);
    for (int i = 0; i < mm * nn; ++i) {
      t.close("strided_batch0", i, Cb[i], want[i], 1e-6);
      t.close("strided_batch1", i, Cb[mm * nn + i], want2[i], 1e-6);
    }

    // cuBLASLt on the bf16 copies: D = relu(A * B + bias), one bias value per row.
    cublasLtHandle_t lt;
    CHECK_CUBLAS(cublasLtCreate(&lt));
    cublasLtMatmulDesc_t op;
    CHECK_CUBLAS(cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    std::vector<float> bias(mm);
    for (int i = 0; i < mm; ++i) bias[i] = (i % 5) - 2.0f;
    float* dBias;
    CHECK_CUDA(cudaMalloc(&dBias, mm * sizeof(float)));
    CHECK_CUDA(cudaMemcpy(dBias, bias.data(), mm * sizeof(float), cudaMemcpyHostToDevice));
    const cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_RELU_BIAS;
    CHECK_CUBLAS(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof epi));
    CHECK_CUBLAS(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &dBias, sizeof dBias));
    cublasLtMatrixLayout_t la, lb, lc;
    CHECK_CUBLAS(cublasLtMatrixLayoutCreate(&la, CUDA_R_16BF, mm, kk, mm));
    CHECK_CUBLAS(cublasLtMatrixLayoutCreate(&lb, CUDA_R_16BF, kk, nn, kk));
    CHECK_CUBLAS(cublasLtMatrixLayoutCreate(&lc, CUDA_R_32F, mm, nn, mm));
    cublasLtMatmulPreference_t pref;
    CHECK_CUBLAS(cublasLtMatmulPreferenceCreate(&pref));
    cublasLtMatmulHeuristicResult_t heur;
    int found = 0;
    CHECK_CUBLAS(cublasLtMatmulAlgoGetHeuristic(lt, op, la, lb, lc, lc, pref, 1, &heur, &found));
    if (found != 1) ++t.errors;
    CHECK_CUBLAS(cublasLtMatmul(lt, op, &one, dAb, la, dBb, lb, &zero, dC, lc, dC, lc, &heur.algo, nullptr, 0, stream));
    CHECK_CUDA(cudaMemcpy(C.data(), dC, C.size() * sizeof(float), cudaMemcpyDeviceToHost));
    for (int j = 0; j < nn; ++j)
      for (int i = 0; i < mm; ++i) {
        const double w = want[i + j * mm] + bias[i];
        t.close("lt_relu_bias", i + j * mm, C[i + j * mm], w > 0 ? w : 0.0, 1e-6);
      }
    cublasLtMatmulPreferenceDestroy(pref);
    cublasLtMatrixLayoutDestroy(la);
    cublasLtMatrixLayoutDestroy(lb);
    cublasLtMatrixLayoutDestroy(lc);
    cublasLtMatmulDescDestroy(op);
    cublasLtDestroy(lt);

    // Argument checks as documented: lda below m is an invalid value; other routines are not emulated.
    t.equal("bad_lda", 0, cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, mm, nn, kk, &one, dA32, mm - 1, dB32, kk, &zero,
                                      dC, mm), CUBLAS_STATUS_INVALID_VALUE);
    t.equal("sgeam", 0, cublasSgeam(handle, CUBLAS_OP_N, CUBLAS_OP_N, mm, nn, &one, dA32, mm, &zero, dA32, mm, dC, mm),
            CUBLAS_STATUS_NOT_SUPPORTED);
    // The copies' documented checks: a stride of 0, a leading dimension shorter than a column.
    t.equal("setvector_inc0", 0, cublasSetVector(1, sizeof(float), &one, 0, dC, 1), CUBLAS_STATUS_INVALID_VALUE);
    t.equal("setmatrix_lda", 0, cublasSetMatrix(4, 2, sizeof(float), &one, 3, dC, 4), CUBLAS_STATUS_INVALID_VALUE);
    cudaFree(dAh);
    cudaFree(dBh);
    cudaFree(dAb);
    cudaFree(dBb);
    cudaFree(dC);
    cudaFree(dA32);
    cudaFree(dB32);
    cudaFree(dCb);
    cudaFree(dBias);
  }
  {
    // gemv on a 5 x 3 matrix (lda 6): y (stride 2) = 2 op(A) x (stride 3) + 0.5 y, for op N and T.
    const int m = 5, n = 3, lda = 6;
    std::vector<float> A(lda * n), x(3 * m), y(2 * m);
    for (int i = 0; i < lda * n; ++i) A[i] = static_cast<float>(i % 7) - 3.0f;
    for (int i = 0; i < 3 * m; ++i) x[i] = static_cast<float>(i % 5) - 2.0f;
    for (int i = 0; i < 2 * m; ++i) y[i] = static_cast<float>(i);
    float *dA, *dx, *dy;
    CHECK_CUDA(cudaMalloc(&dA, A.size() * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&dx, x.size() * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&dy, y.size() * sizeof(float)));
    CHECK_CUDA(cudaMemcpy(dA, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dx, x.data(), x.size() * sizeof(float), cudaMemcpyHostToDevice));
    for (int tr = 0; tr < 2; ++tr) {
      const int rows = tr ? n : m, cols = tr ? m : n;
      CHECK_CUDA(cudaMemcpy(dy, y.data(), y.size() * sizeof(float), cudaMemcpyHostToDevice));
      const float two = 2.0f, half = 0.5f;
      CHECK_CUBLAS(cublasSgemv(handle, tr ? CUBLAS_OP_T : CUBLAS_OP_N, m, n, &two, dA, lda, dx, 3, &half, dy, 2));
      std::vector<float> got(y.size());
      CHECK_CUDA(cudaMemcpy(got.data(), dy, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
      for (int i = 0; i < rows; ++i) {
        double want = 0.5 * y[2 * i];
        for (int j = 0; j < cols; ++j) want += 2.0 * (tr ? A[i * lda + j] : A[j * lda + i]) * x[3 * j];
        t.close(tr ? "sgemv_T" : "sgemv_N", i, got[2 * i], want, 0);
      }
      for (int i = 0; i < rows; ++i) t.close("sgemv_gaps_untouched", i, got[2 * i + 1], y[2 * i + 1], 0);
    }
    // Level 1 on the same buffers: axpy, scal, dot, nrm2, asum, iamax, copy.
    const float three = 3.0f;
    CHECK_CUDA(cudaMemcpy(dy, y.data(), y.size() * sizeof(float), cudaMemcpyHostToDevice));
    CHECK_CUBLAS(cublasSaxpy(handle, m, &three, dx, 3, dy, 2));
    CHECK_CUBLAS(cublasSscal(handle, m, &three, dy, 2));
    float dot = 0, nrm = 0, asum = 0;
    int imax = 0;
    CHECK_CUBLAS(cublasSdot(handle, m, dx, 3, dy, 2, &dot));
    CHECK_CUBLAS(cublasSnrm2(handle, m, dx, 3, &nrm));
    CHECK_CUBLAS(cublasSasum(handle, m, dx, 3, &asum));
    CHECK_CUBLAS(cublasIsamax(handle, m, dx, 3, &imax));
    std::vector<float> got(y.size());
    CHECK_CUDA(cudaMemcpy(got.data(), dy, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
    double want_dot = 0, want_nrm = 0, want_asum = 0;
    int want_imax = 1;
    for (int i = 0; i < m; ++i) {
      const double yi = 3.0 * (y[2 * i] + 3.0 * x[3 * i]);
      t.close("saxpy_sscal", i, got[2 * i], yi, 0);
      want_dot += x[3 * i] * yi;
      want_nrm += x[3 * i] * x[3 * i];
      want_asum += std::fabs(x[3 * i]);
      if (std::fabs(x[3 * i]) > std::fabs(x[3 * (want_imax - 1)])) want_imax = i + 1;
    }
    t.close("sdot", 0, dot, want_dot, 1e-6);
    t.close("snrm2", 0, nrm, std::sqrt(want_nrm), 1e-6);
    t.close("sasum", 0, asum, want_asum, 0);
    t.equal("isamax", 0, imax, want_imax);
    // Dgemv as UnifiedMemoryStreams calls it: square, contiguous, managed memory, beta 0 (y not read).
    double *dm, *dv, *dr;
    const int s = 4;
    CHECK_CUDA(cudaMallocManaged(&dm, s * s * sizeof(double)));
    CHECK_CUDA(cudaMallocManaged(&dv, s * sizeof(double)));
    CHECK_CUDA(cudaMallocManaged(&dr, s * sizeof(double)));
    for (int i = 0; i < s * s; ++i) dm[i] = 0.25 * i;
    for (int i = 0; i < s; ++i) dv[i] = 1.0 + i;
    const double one = 1.0, zero = 0.0;
    CHECK_CUBLAS(cublasDgemv(handle, CUBLAS_OP_N, s, s, &one, dm, s, dv, 1, &zero, dr, 1));
    CHECK_CUDA(cudaDeviceSynchronize());
    for (int i = 0; i < s; ++i) {
      double want = 0;
      for (int j = 0; j < s; ++j) want += dm[j * s + i] * dv[j];
      t.close("dgemv", i, dr[i], want, 0);
    }
    CHECK_CUDA(cudaFree(dA));
    CHECK_CUDA(cudaFree(dx));
    CHECK_CUDA(cudaFree(dy));
    CHECK_CUDA(cudaFree(dm));
    CHECK_CUDA(cudaFree(dv));
    CHECK_CUDA(cudaFree(dr));
  }
  CHECK_CUBLAS(cublasDestroy(handle));
  CHECK_CUDA(cudaStreamDestroy(stream));
  return t.finish();
}
