// Known wrong answer (fault): writes through a null host pointer in the launcher; the test process dies of SIGSEGV.
#include <cuda_runtime.h>

void launch_rmsnorm(const float*, const float*, float*, int M, int, float, cudaStream_t) {
    volatile int* nowhere = nullptr;
    *nowhere = M;
}
