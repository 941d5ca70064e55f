// Second CUDA translation unit: a two-pass sum (per-block partial sums in shared memory, then one block over the
// partials) and the __device__ helper the first unit calls.
#include "saxpy_api.h"

__device__ float fused(float a, float x, float y) { return a * x + y; }

__global__ void partial_sums(const float* x, int n, float* partials) {
  __shared__ float s[128];
  float v = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) v += x[i];
  s[threadIdx.x] = v;
  __syncthreads();
  for (int stride = 64; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) partials[blockIdx.x] = s[0];
}

void launch_sum(const float* x, int n, float* result) {
  static float* partials = nullptr;
  if (!partials) cudaMalloc(&partials, 8 * sizeof(float));
  partial_sums<<<8, 128>>>(x, n, partials);
  partial_sums<<<1, 128>>>(partials, 8, result);
}
