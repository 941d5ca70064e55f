// First CUDA translation unit of the multi-file program: saxpy, with a __device__ helper defined in the other unit
// (multi_tu_reduce.cu) and called across units, as -rdc=true allows.
#include "saxpy_api.h"

__device__ float fused(float a, float x, float y);  // defined in multi_tu_reduce.cu

__global__ void saxpy(float a, const float* x, float* y, int n) {
  __shared__ float xs[128];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  xs[threadIdx.x] = i < n ? x[i] : 0.f;
  __syncthreads();
  if (i < n) y[i] = fused(a, xs[threadIdx.x], y[i]);
}

void launch_saxpy(float a, const float* x, float* y, int n) { saxpy<<<(n + 127) / 128, 128>>>(a, x, y, n); }
