// The roofline's copies and the choice between them (see copies.h).
#include "copies.h"

#include <algorithm>

#include "cuda_check.h"
#include "pdl_launch.cuh"

namespace bench {
namespace {

__global__ void copy16_kernel(int4* __restrict__ dst, const int4* __restrict__ src, size_t n) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
        dst[i] = src[i];
}

// One block a row of THREADS * WORDS 16-byte words; `n` words in all, the last row possibly short. Every word of the
// thread is loaded before the first is stored, so that all of them are in flight at once.
template <int THREADS, int WORDS>
__global__ void __launch_bounds__(THREADS)
    row_copy_kernel(int4* __restrict__ dst, const int4* __restrict__ src, size_t n) {
    const size_t first = size_t(blockIdx.x) * THREADS * WORDS + threadIdx.x;
    int4 v[WORDS];
#pragma unroll
    for (int i = 0; i < WORDS; ++i)
        if (first + i * THREADS < n) v[i] = __ldcs(src + first + i * THREADS);
#pragma unroll
    for (int i = 0; i < WORDS; ++i)
        if (first + i * THREADS < n) __stcs(dst + first + i * THREADS, v[i]);
}

// row_copy_rows's kernel: block b copies row b / tensors of tensor b % tensors, `row_words` words a row, WORDS a
// thread. WAIT: first the programmatic dependent launch pair (copies.h, CopyLaunch), which sm_90 has and the CPU
// emulator runs as what it is on its serialised stream (the previous grid is complete: nothing to wait for).
template <int WORDS, bool WAIT>
__global__ void __launch_bounds__(1024) row_copy_rows_kernel(int4* dst0, const int4* src0, int4* dst1, const int4* src1,
                                                             size_t n, size_t row_words, int tensors) {
    if constexpr (WAIT) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
        cudaTriggerProgrammaticLaunchCompletion();
        cudaGridDependencySynchronize();
#endif
    }
    const int t = static_cast<int>(blockIdx.x % unsigned(tensors));
    const size_t row = blockIdx.x / unsigned(tensors);
    int4* dst = t ? dst1 : dst0;
    const int4* src = t ? src1 : src0;
    const size_t first = row * row_words + threadIdx.x;
    const size_t end = (row + 1) * row_words < n ? (row + 1) * row_words : n;
    int4 v[WORDS];
#pragma unroll
    for (int i = 0; i < WORDS; ++i)
        if (first + size_t(i) * blockDim.x < end) v[i] = __ldcs(src + first + size_t(i) * blockDim.x);
#pragma unroll
    for (int i = 0; i < WORDS; ++i)
        if (first + size_t(i) * blockDim.x < end) __stcs(dst + first + size_t(i) * blockDim.x, v[i]);
}

template <int WORDS, bool WAIT>
cudaError_t launch_row_copy_rows(bool pdl, unsigned blocks, unsigned threads, cudaStream_t stream, int4* d0,
                                 const int4* s0, int4* d1, const int4* s1, size_t n, size_t row_words, int tensors) {
    return launch_maybe_pdl(pdl, row_copy_rows_kernel<WORDS, WAIT>, blocks, threads, 0, stream, d0, s0, d1, s1, n,
                            row_words, tensors);
}

__global__ void count_differences_kernel(const int4* __restrict__ a, const int4* __restrict__ b, size_t n,
                                         unsigned long long* count) {
    unsigned long long mine = 0;
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
        const int4 x = a[i], y = b[i];
        mine += x.x != y.x || x.y != y.y || x.z != y.z || x.w != y.w;
    }
    if (mine) atomicAdd(count, mine);
}

}  // namespace

void copy_kernel(void* dst, const void* src, size_t bytes, cudaStream_t stream) {
    const size_t n = bytes / 16;
    const int grid = int(std::min<size_t>((n + 255) / 256, 132 * 16));
    copy16_kernel<<<grid, 256, 0, stream>>>(static_cast<int4*>(dst), static_cast<const int4*>(src), n);
}

void row_copy(void* dst, const void* src, size_t bytes, int threads, cudaStream_t stream) {
    const size_t n = bytes / 16, rows = (bytes + 2047) / 2048;
    auto* d = static_cast<int4*>(dst);
    const auto* s = static_cast<const int4*>(src);
    if (threads == 128) row_copy_kernel<128, 1><<<unsigned(rows), 128, 0, stream>>>(d, s, n);
    else row_copy_kernel<64, 2><<<unsigned(rows), 64, 0, stream>>>(d, s, n);
}

bool row_copy_rows(const CopyTensors& tensors, size_t bytes, size_t row_bytes, int words, CopyLaunch how,
                   cudaStream_t stream) {
    if (bytes % 16 || row_bytes % 16 || row_bytes == 0 || tensors.count < 1 || tensors.count > 2) return false;
    const size_t n = bytes / 16, row_words = row_bytes / 16, rows = (n + row_words - 1) / row_words;
    const size_t threads = ((row_words + words - 1) / words + 31) / 32 * 32;
    if (threads > 1024 || rows * tensors.count > 0x7fffffffu) return false;
    auto* d0 = static_cast<int4*>(tensors.dst[0]);
    auto* d1 = static_cast<int4*>(tensors.dst[tensors.count - 1]);
    const auto* s0 = static_cast<const int4*>(tensors.src[0]);
    const auto* s1 = static_cast<const int4*>(tensors.src[tensors.count - 1]);
    const unsigned blocks = unsigned(rows * tensors.count), t = unsigned(threads);
    const bool wait = how != CopyLaunch::plain, pdl = how == CopyLaunch::pdl;
#define BENCH_ROW_COPY(W)                                                                                     \
    if (words == (W))                                                                                         \
        return (wait ? launch_row_copy_rows<W, true>(pdl, blocks, t, stream, d0, s0, d1, s1, n, row_words,    \
                                                     tensors.count)                                           \
                     : launch_row_copy_rows<W, false>(false, blocks, t, stream, d0, s0, d1, s1, n, row_words, \
                                                      tensors.count)) == cudaSuccess;
    BENCH_ROW_COPY(1)
    BENCH_ROW_COPY(2)
    BENCH_ROW_COPY(4)
#undef BENCH_ROW_COPY
    return false;
}

size_t count_differences(const void* a, const void* b, size_t bytes) {
    unsigned long long* count = nullptr;
    CUDA_CHECK(cudaMalloc(&count, sizeof *count));
    CUDA_CHECK(cudaMemset(count, 0, sizeof *count));
    const size_t n = bytes / 16;
    const int grid = int(std::min<size_t>((n + 255) / 256, 132 * 8));
    count_differences_kernel<<<grid, 256>>>(static_cast<const int4*>(a), static_cast<const int4*>(b), n, count);
    CUDA_CHECK(cudaGetLastError());
    unsigned long long host = 0;
    CUDA_CHECK(cudaMemcpy(&host, count, sizeof host, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(count));
    return size_t(host);
}

CopyFigure fastest_copy(const std::vector<CopyFigure>& copies) {
    CopyFigure best;
    for (const CopyFigure& c : copies)
        if (c.tbs > best.tbs) best = c;
    return best;
}

}  // namespace bench
