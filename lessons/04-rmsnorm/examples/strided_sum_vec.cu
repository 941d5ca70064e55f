// Lesson 04 · neighbouring example for section 5 (not an exercise): the sum of every row of a strided fp32 matrix
// whose rows start at any 4-byte-aligned address, read with 16-byte loads where the address allows.
//
// Another type (fp32: 4 elements per 16-byte pack) and another way to write the split than the `rmsnorm_vec`
// exercise: the first aligned address is found by rounding the row's address up, the body is walked through a
// pointer to packs, and the tail is counted back from the end of the row. The matrix starts at `buf + 1` and its
// row stride is not a multiple of 4, so consecutive rows have different prefixes. Inputs are small integers, so the
// sums are exact in any order. Checked by the ctest lesson.examples.strided_sum_vec.*; a 16-byte load from an
// address that is not a multiple of 16 would be reported by the emulator.
#include <cuda_runtime.h>

#include <cstdint>
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

// ANCHOR: pack
constexpr int kPack = 4;                   // fp32 values per 16-byte pack
constexpr std::uintptr_t kPackBytes = 16;  // the widest access of one thread
static_assert(kPack > 0 && (kPack & (kPack - 1)) == 0, "a pack holds a power of two of elements");

// alignas(16) lets the compiler load the whole struct with one 16-byte instruction, and obliges the address to be a
// multiple of 16.
struct alignas(16) Float4Pack {
    float v[kPack];
};
// ANCHOR_END: pack

__device__ float warp_sum(float v) {
    for (int d = 16; d >= 1; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
    return v;  // complete in lane 0
}

__global__ void row_sums(const float* x, long long row_stride, float* sums, int N) {
    const float* row = x + static_cast<long long>(blockIdx.x) * row_stride;
    // ANCHOR: split
    // The first 16-byte boundary at or after the row's start, by rounding its address up to a multiple of 16.
    const std::uintptr_t start = reinterpret_cast<std::uintptr_t>(row);
    const std::uintptr_t first_aligned = (start + kPackBytes - 1) & ~(kPackBytes - 1);
    const int head = min(N, static_cast<int>((first_aligned - start) / sizeof(float)));  // never past the row
    const int packs = (N - head) / kPack;
    const int tail_begin = N - (N - head) % kPack;  // the elements after the last whole pack
    // ANCHOR_END: split

    // ANCHOR: walk
    float s = 0.0f;
    for (int j = threadIdx.x; j < head; j += kBlock) s += row[j];
    const Float4Pack* body = reinterpret_cast<const Float4Pack*>(row + head);  // 16-byte aligned by construction
    for (int p = threadIdx.x; p < packs; p += kBlock) {
        const Float4Pack q = body[p];  // one 16-byte load: row[head + 4p] ... row[head + 4p + 3]
        s += (q.v[0] + q.v[1]) + (q.v[2] + q.v[3]);
    }
    for (int j = tail_begin + threadIdx.x; j < N; j += kBlock) s += row[j];
    // ANCHOR_END: walk

    __shared__ float per_warp[kBlock / 32];
    s = warp_sum(s);
    if (threadIdx.x % 32 == 0) per_warp[threadIdx.x / 32] = s;
    __syncthreads();
    if (threadIdx.x == 0) {
        float total = 0.0f;
        for (int w = 0; w < kBlock / 32; ++w) total += per_warp[w];
        sums[blockIdx.x] = total;
    }
}

bool run_case(int M, int N, long long stride) {
    // One spare float in front, so that the matrix can start 4 bytes past the allocation's 256-byte alignment.
    const std::size_t count = 1 + static_cast<std::size_t>(M - 1) * stride + N;
    std::vector<float> host(count, 0.0f);
    std::vector<double> want(M, 0.0);
    std::srand(static_cast<unsigned>(N));
    for (int r = 0; r < M; ++r)
        for (int c = 0; c < N; ++c) {
            const float v = static_cast<float>(std::rand() % 9 - 4);
            host[1 + static_cast<std::size_t>(r) * stride + c] = v;
            want[r] += v;
        }
    float *buf, *dsums;
    std::vector<float> got(M, -1.0f);
    CUDA_CHECK(cudaMalloc(&buf, count * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dsums, M * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(buf, host.data(), count * sizeof(float), cudaMemcpyHostToDevice));
    row_sums<<<M, kBlock>>>(buf + 1, stride, dsums, N);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got.data(), dsums, M * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(buf));
    CUDA_CHECK(cudaFree(dsums));
    int bad = 0;
    for (int r = 0; r < M; ++r)
        if (static_cast<double>(got[r]) != want[r] && bad++ < 3)
            std::printf("  row %d: %.0f, want %.0f\n", r, got[r], want[r]);
    std::printf("%s M=%d N=%d stride=%lld\n", bad == 0 ? "ok  " : "FAIL", M, N, stride);
    return bad == 0;
}

}  // namespace

int main() {
    bool ok = true;
    // Rows shorter than one prefix, shorter than one pack after it, and long rows; strides 1 and 2 past a multiple
    // of 4 (rows cycle through the four alignments), and an aligned stride.
    ok &= run_case(4, 1, 5);
    ok &= run_case(4, 6, 7);
    ok &= run_case(5, 1001, 1001);
    ok &= run_case(3, 777, 780);
    std::printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
