// Known wrong answer (cheat, gpu-mode's "empty"): a kernel that does nothing. The hidden tests poison the output
// before each launch, so every element still holds the poison; the edit check also vetoes the rewrite.
#include <cuda_runtime.h>

namespace {
__global__ void rmsnorm_kernel(const float*, const float*, float*, int, int, float) {}
}  // namespace

void launch_rmsnorm(const float* input, const float* weight, float* output, int M, int N, float eps,
                    cudaStream_t stream) {
    if (M <= 0 || N <= 0) return;
    rmsnorm_kernel<<<M, 256, 0, stream>>>(input, weight, output, M, N, eps);
}
