// Known wrong answer (cheat): copies the input to the output, hoping for a loose comparison.
#include <cuda_runtime.h>

void launch_rmsnorm(const float* input, const float*, float* output, int M, int N, float, cudaStream_t stream) {
    if (M <= 0 || N <= 0) return;
    cudaMemcpyAsync(output, input, sizeof(float) * static_cast<size_t>(M) * N, cudaMemcpyDeviceToDevice, stream);
}
