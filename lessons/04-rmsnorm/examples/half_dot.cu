// Lesson 04 · neighbouring example for section 4 (not an exercise): the dot product of every fp16 row of an M x N
// matrix with one fp16 vector, accumulated in fp32, next to the same reduction with an fp16 running sum.
//
// It shows the precision rule of section 4 on another reduction than a sum of squares: each element is widened to
// float as it is loaded and everything after that is float; a 16-bit running sum instead stops growing once the
// spacing of fp16 numbers near the sum exceeds twice what is added. Inputs are small integers, so every fp32 sum
// here is exact and the check can demand equality. Checked by the ctest lesson.examples.half_dot.*.
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#define CUDA_CHECK(expr)                                                                                           \
    do {                                                                                                           \
        cudaError_t status_ = (expr);                                                                              \
        if (status_ != cudaSuccess) {                                                                              \
            std::printf("FAIL: %s returned %s (%s:%d)\n", #expr, cudaGetErrorString(status_), __FILE__, __LINE__); \
            std::exit(1);                                                                                          \
        }                                                                                                          \
    } while (0)

namespace {

constexpr int kBlock = 64;

__device__ float warp_sum(float v) {
    for (int d = 16; d >= 1; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
    return v;  // complete in lane 0
}

// Sum over the block, valid in thread 0.
__device__ float block_sum(float v) {
    __shared__ float per_warp[kBlock / 32];
    v = warp_sum(v);
    if (threadIdx.x % 32 == 0) per_warp[threadIdx.x / 32] = v;
    __syncthreads();
    float total = 0.0f;
    if (threadIdx.x == 0)
        for (int w = 0; w < kBlock / 32; ++w) total += per_warp[w];
    return total;
}

__global__ void dot_rows(const __half* x, const __half* w, float* dots, int N) {
    const __half* row = x + static_cast<long long>(blockIdx.x) * N;
    // ANCHOR: fp32_dot
    // Widen both factors the moment they are loaded; the product and the running sum are fp32.
    float acc = 0.0f;
    for (int col = threadIdx.x; col < N; col += kBlock) {
        acc += __half2float(row[col]) * __half2float(w[col]);
    }
    // ANCHOR_END: fp32_dot
    acc = block_sum(acc);
    if (threadIdx.x == 0) dots[blockIdx.x] = acc;
}

// The mistake, on one thread so that the order of additions is plain: an fp16 running sum, rounded after each add.
__global__ void dot_rows_fp16_sum(const __half* x, const __half* w, float* dots, int N) {
    const __half* row = x + static_cast<long long>(blockIdx.x) * N;
    if (threadIdx.x != 0) return;
    __half acc = __float2half_rn(0.0f);
    for (int col = 0; col < N; ++col)
        acc = __float2half_rn(__half2float(acc) + __half2float(row[col]) * __half2float(w[col]));
    dots[blockIdx.x] = __half2float(acc);
}

bool run() {
    const int M = 3, N = 4096;
    // Row 0: products of 1 (true dot 4096); row 1: products of 4 (16384); row 2: mixed signs and sizes.
    std::vector<__half> x(static_cast<std::size_t>(M) * N), w(N);
    std::vector<double> want(M, 0.0);
    std::srand(7);
    for (int c = 0; c < N; ++c) w[c] = __float2half_rn(c % 2 == 0 ? 1.0f : 2.0f);
    for (int r = 0; r < M; ++r)
        for (int c = 0; c < N; ++c) {
            const float wc = c % 2 == 0 ? 1.0f : 2.0f;
            float v = r == 0 ? 1.0f / wc : r == 1 ? 4.0f / wc : static_cast<float>(std::rand() % 17 - 8);
            x[static_cast<std::size_t>(r) * N + c] = __float2half_rn(v);
            want[r] += static_cast<double>(v) * wc;
        }

    __half *dx, *dw;
    float* dd;
    std::vector<float> got(M), got16(M);
    CUDA_CHECK(cudaMalloc(&dx, x.size() * sizeof(__half)));
    CUDA_CHECK(cudaMalloc(&dw, w.size() * sizeof(__half)));
    CUDA_CHECK(cudaMalloc(&dd, M * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dx, x.data(), x.size() * sizeof(__half), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dw, w.data(), w.size() * sizeof(__half), cudaMemcpyHostToDevice));
    dot_rows<<<M, kBlock>>>(dx, dw, dd, N);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got.data(), dd, M * sizeof(float), cudaMemcpyDeviceToHost));
    dot_rows_fp16_sum<<<M, kBlock>>>(dx, dw, dd, N);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got16.data(), dd, M * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(dx));
    CUDA_CHECK(cudaFree(dw));
    CUDA_CHECK(cudaFree(dd));

    bool ok = true;
    for (int r = 0; r < M; ++r) {
        std::printf("row %d: exact %.0f, fp32 sum %.0f, fp16 sum %.0f\n", r, want[r], got[r], got16[r]);
        ok &= static_cast<double>(got[r]) == want[r];
    }
    // Section 4's numbers: adding 1 stagnates at 2048 in fp16; adding 4 stagnates at 8192 (spacing 8 there, 4 a tie).
    ok &= got16[0] == 2048.0f && got16[1] == 8192.0f;
    return ok;
}

}  // namespace

int main() {
    const bool ok = run();
    std::printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
