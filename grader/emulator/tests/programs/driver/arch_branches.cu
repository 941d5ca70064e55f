// __CUDA_ARCH__ as nvcc defines it: device code (kernels, __device__ functions) sees the target architecture, host
// code does not. Branches of both kinds are common in real programs: a device helper with an arch-specific path, a
// macro defined differently for the two sides, host-only code behind #ifndef __CUDA_ARCH__.
#include <cstdio>
#include <vector>

#ifdef __CUDA_ARCH__
#define SIDE 1  // what device code sees
#else
#define SIDE 0
#endif

__device__ int device_arch() {
#ifdef __CUDA_ARCH__
  return __CUDA_ARCH__;
#else
  return -1;  // never compiled for the device; the emulator must not pick it
#endif
}

__device__ float fast_scale(float x) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __fmul_rn(x, 2.f);  // the path a current GPU takes
#else
  return x * 2.f + 1000.f;  // an older (or absent) architecture's path: visibly different
#endif
}

__global__ void probe(int* arch, int* side, float* scaled, const float* in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) {
    *arch = device_arch();
    *side = SIDE;
  }
  if (i < n) scaled[i] = fast_scale(in[i]);
}

int host_side() { return SIDE; }

#ifndef __CUDA_ARCH__
// Host-only code: the device pass does not even see it (so only host-pass code may use it, as in main below).
std::vector<float> host_inputs(int n) {
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i) v[i] = 0.25f * i - 3.f;
  return v;
}
#endif

int main() {
  const int n = 100;
#ifndef __CUDA_ARCH__
  const std::vector<float> h = host_inputs(n);
#else
  const std::vector<float> h(n, 1e9f);  // main is host code: the device pass's version must never run
#endif
  int *arch, *side;
  float *in, *scaled;
  cudaMallocManaged(&arch, sizeof(int));
  cudaMallocManaged(&side, sizeof(int));
  cudaMallocManaged(&in, n * sizeof(float));
  cudaMallocManaged(&scaled, n * sizeof(float));
  for (int i = 0; i < n; ++i) in[i] = h[i];
  probe<<<1, 128>>>(arch, side, scaled, in, n);
  if (cudaDeviceSynchronize() != cudaSuccess) return std::puts("FAIL: the launch failed"), 1;
  std::printf("device __CUDA_ARCH__ = %d, device SIDE = %d, host SIDE = %d\n", *arch, *side, host_side());
  if (*arch != 900 || *side != 1 || host_side() != 0) return std::puts("FAIL: wrong side of __CUDA_ARCH__"), 1;
  for (int i = 0; i < n; ++i)
    if (scaled[i] != h[i] * 2.f) return std::printf("FAIL: element %d took the wrong branch (%g)\n", i, scaled[i]), 1;
  std::puts("PASS");
  return 0;
}
