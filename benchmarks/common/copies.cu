// The roofline's copies and the choice between them (see copies.h).
#include "copies.h"

#include <algorithm>

#include "cuda_check.h"

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
