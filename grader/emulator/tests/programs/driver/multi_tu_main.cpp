// Host side of the multi-file program, plain C++ (compiled as a .cpp, as nvcc passes it to the host compiler): it
// calls the CUDA units only through saxpy_api.h and the runtime API.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "saxpy_api.h"

int main() {
  const int n = 1000;
  std::vector<float> hx(n), hy(n);
  for (int i = 0; i < n; ++i) {
    hx[i] = 0.001f * i;
    hy[i] = 1.f;
  }
  float *x, *y, *sum;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMalloc(&sum, sizeof(float));
  cudaMemcpy(x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(y, hy.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  launch_saxpy(3.f, x, y, n);
  launch_sum(y, n, sum);
  float got = 0.f;
  cudaMemcpy(&got, sum, sizeof(float), cudaMemcpyDeviceToHost);
  if (cudaGetLastError() != cudaSuccess) return std::puts("FAIL: a launch failed"), 1;
  double want = 0;
  for (int i = 0; i < n; ++i) want += 3.0 * hx[i] + hy[i];
  if (std::fabs(got - want) > 1e-4 * want) return std::printf("FAIL: sum %g, expected %g\n", got, want), 1;
  std::printf("saxpy then sum over %d elements: %g\nPASS\n", n, got);
  return 0;
}
