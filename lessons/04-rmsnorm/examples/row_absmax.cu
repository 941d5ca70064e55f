// Lesson 04 · neighbouring example for sections 2 and 3 (not an exercise): absmax scaling, the first step of int8
// quantization. Every row of an M x N fp32 matrix is divided by its largest magnitude, so that it ends in [-1, 1].
//
// It has the shape of RMSNorm (one block per row; pass 1 reduces the row to one number; that number reaches every
// thread; pass 2 rewrites the row) but another reduction: a max instead of a sum. The block reduction is laid out
// differently from the `block_reduce` exercise too: the warps' results are combined by one thread in a loop.
// Built for the emulator and checked against a CPU loop by the ctest lesson.examples.row_absmax.*.
#include <cuda_runtime.h>

#include <cmath>
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

constexpr int kBlock = 128;
constexpr unsigned kAllLanes = 0xffffffffu;

// ANCHOR: warp_max
// Max over the 32 lanes of a warp. At each step a lane combines its value with that of the lane whose index
// differs in bit d; the partners compute the same max, so after five steps every lane holds the warp's largest value.
__device__ float warp_max(float m) {
    for (int d = 16; d >= 1; d /= 2) {
        m = fmaxf(m, __shfl_xor_sync(kAllLanes, m, d));
    }
    return m;
}
// ANCHOR_END: warp_max

template <int BLOCK>
__global__ void absmax_scale(const float* x, float* y, float* row_max, int M, int N) {
    if (static_cast<int>(blockIdx.x) >= M) return;
    // ANCHOR: row
    // 64-bit row offset: with M * N above 2^31 an int product would wrap and point into another row.
    const float* row_in = x + static_cast<long long>(blockIdx.x) * N;
    float* row_out = y + static_cast<long long>(blockIdx.x) * N;
    // ANCHOR_END: row

    // ANCHOR: pass1
    // |x| >= 0, so 0 is the identity of this max: a thread with no column (N < BLOCK) changes nothing.
    float m = 0.0f;
    for (int col = threadIdx.x; col < N; col += BLOCK) {
        m = fmaxf(m, fabsf(row_in[col]));
    }
    // ANCHOR_END: pass1

    // ANCHOR: combine
    __shared__ float per_warp[BLOCK / 32];
    __shared__ float block_max;
    m = warp_max(m);  // every lane now holds its warp's max
    if (threadIdx.x % 32 == 0) per_warp[threadIdx.x / 32] = m;
    __syncthreads();  // every slot is written before thread 0 reads them
    if (threadIdx.x == 0) {
        float all = per_warp[0];
        for (int w = 1; w < BLOCK / 32; ++w) all = fmaxf(all, per_warp[w]);
        block_max = all;
    }
    __syncthreads();                                                 // block_max is written before any thread reads it
    const float scale = block_max > 0.0f ? 1.0f / block_max : 0.0f;  // an all-zero row stays zero
    // ANCHOR_END: combine

    // ANCHOR: pass2
    for (int col = threadIdx.x; col < N; col += BLOCK) {
        row_out[col] = row_in[col] * scale;
    }
    // ANCHOR_END: pass2
    if (threadIdx.x == 0) row_max[blockIdx.x] = block_max;
}

bool run_case(int M, int N, unsigned seed) {
    std::vector<float> x(static_cast<std::size_t>(M) * N), y(x.size(), NAN), row_max(M, NAN);
    std::srand(seed);
    for (float& v : x) v = static_cast<float>(std::rand()) / RAND_MAX * 8.0f - 4.0f;
    if (M > 1)  // one all-zero row
        for (int c = 0; c < N; ++c) x[static_cast<std::size_t>(M - 1) * N + c] = 0.0f;

    float *dx, *dy, *dmax;
    CUDA_CHECK(cudaMalloc(&dx, x.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dy, y.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dmax, row_max.size() * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dx, x.data(), x.size() * sizeof(float), cudaMemcpyHostToDevice));
    absmax_scale<kBlock><<<M, kBlock>>>(dx, dy, dmax, M, N);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(y.data(), dy, y.size() * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(row_max.data(), dmax, row_max.size() * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(dx));
    CUDA_CHECK(cudaFree(dy));
    CUDA_CHECK(cudaFree(dmax));

    // A max is exact in any order, and the kernel's scale is the same float division: results must be equal.
    int bad = 0;
    for (int r = 0; r < M; ++r) {
        float want_max = 0.0f;
        for (int c = 0; c < N; ++c) want_max = std::fmax(want_max, std::fabs(x[static_cast<std::size_t>(r) * N + c]));
        const float scale = want_max > 0.0f ? 1.0f / want_max : 0.0f;
        if (row_max[r] != want_max && bad++ < 3)
            std::printf("  row %d: max %.9g, want %.9g\n", r, row_max[r], want_max);
        for (int c = 0; c < N; ++c) {
            const std::size_t i = static_cast<std::size_t>(r) * N + c;
            if (y[i] != x[i] * scale && bad++ < 3)
                std::printf("  row %d col %d: %.9g, want %.9g\n", r, c, y[i], x[i] * scale);
        }
    }
    std::printf("%s M=%d N=%d\n", bad == 0 ? "ok  " : "FAIL", M, N);
    return bad == 0;
}

}  // namespace

int main() {
    bool ok = true;
    // Rows shorter than a warp, than the block, equal to it, and several block widths long with a ragged end.
    ok &= run_case(3, 5, 1);
    ok &= run_case(2, 100, 2);
    ok &= run_case(2, kBlock, 3);
    ok &= run_case(3, 1000, 4);
    std::printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
