// Known wrong answer (fault): the kernel never finishes. Each test must end at its time limit and be reported as
// timed out; the other tests still run.
#include <cuda_runtime.h>

namespace {
__global__ void rmsnorm_kernel(const float* input, float* output, int N) {
    volatile float* out = output;
    // The loop condition depends on memory the kernel itself keeps rewriting, so the compiler cannot remove it.
    while (true) {
        out[threadIdx.x % N] = input[threadIdx.x % N];
    }
}
}  // namespace

void launch_rmsnorm(const float* input, const float*, float* output, int M, int N, float, cudaStream_t stream) {
    if (M <= 0 || N <= 0) return;
    rmsnorm_kernel<<<M, 256, 0, stream>>>(input, output, N);
}
