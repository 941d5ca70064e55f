// A header included only when __CUDA_ARCH__ is defined, and again, unconditionally, through another header later
// (cuda-samples' globalToShmemAsyncCopy includes <cuda/barrier> under `#if __CUDA_ARCH__ >= 700`, and its helper
// headers include what <cuda/barrier> includes). nvcc's two passes each see the header once; emu-nvcc's merge must
// keep one copy of its declarations, not both (a page of "redefinition" errors before).
#include <cstdio>
#if __CUDA_ARCH__ >= 700
#include "arch_include.cuh"
#endif
// Declarations between the two places: the merge can no longer line the header's copies up.
static const int kBetween = 3;
#include "arch_include_again.cuh"

__global__ void doubled(int* out) {
    ArchIncludeCounter c{arch_include_twice(static_cast<int>(threadIdx.x))};
    out[threadIdx.x] = c.hits;
}

int main() {
    int* d;
    cudaMalloc(&d, 4 * sizeof(int));
    doubled<<<1, 4>>>(d);
    int h[4];
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    bool ok = arch_include_host_value() == 21 && kBetween == 3;
    for (int i = 0; i < 4; ++i) ok = ok && h[i] == 2 * i;
    cudaFree(d);
    std::printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
