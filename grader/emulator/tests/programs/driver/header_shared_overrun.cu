// A planted bug in a header's kernel: the halo of a __shared__ window declared by a macro (window_macros.cuh) is
// written one element past its end. The emulator reports the header's file:line and the thread. "fixed" passes the
// correct halo and checks a 3-point box filter against a CPU loop.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "window_macros.cuh"

int main(int argc, char** argv) {
  const bool fixed = argc > 1 && std::strcmp(argv[1], "fixed") == 0;
  const int n = 200;
  std::vector<float> h(n);
  for (int i = 0; i < n; ++i) h[i] = static_cast<float>(i % 17);
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  box_filter<1, 64><<<(n + 63) / 64, 64>>>(in, out, n, fixed ? 0 : 1);
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("launch: %s\n", cudaGetErrorName(e));
  if (!fixed) return std::puts(e == cudaSuccess ? "FAIL: the overrun went unreported" : "REPORTED"), e == cudaSuccess;
  std::vector<float> got(n);
  cudaMemcpy(got.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) {
    const float want = ((i > 0 ? h[i - 1] : 0.f) + h[i] + (i + 1 < n ? h[i + 1] : 0.f)) / 3.f;
    if (std::fabs(got[i] - want) > 1e-5f)
      return std::printf("FAIL: element %d = %g, expected %g\n", i, got[i], want), 1;
  }
  std::puts("PASS");
  return 0;
}
