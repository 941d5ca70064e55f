// Known wrong answer (fault): frees one host buffer twice; glibc aborts the process (or its heap is corrupt).
#include <cuda_runtime.h>
#include <cstdlib>

void launch_rmsnorm(const float*, const float*, float*, int M, int N, float, cudaStream_t) {
    volatile size_t bytes = static_cast<size_t>(M) * N * sizeof(float) + 64;
    void* scratch = std::malloc(bytes);
    std::free(scratch);
    std::free(scratch);
}
