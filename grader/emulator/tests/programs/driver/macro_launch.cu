// Launches written through macros, as kernel collections do to stamp out one kernel per operation: the kernel's
// name is pasted with ## and the launch configuration comes from the macro's arguments; the shared staging buffer is
// declared by a macro too. The emulator rewrites what the preprocessor produced, so all of it must work.
#include <cstdio>
#include <vector>

#define STAGE_BUFFER(type, name, n) __shared__ type name[n]

#define DEFINE_ELEMENTWISE(op, expr)                                         \
  __global__ void op##_kernel(const float* a, const float* b, float* c, int n) { \
    STAGE_BUFFER(float, staged, 128);                                        \
    const int i = blockIdx.x * blockDim.x + threadIdx.x;                      \
    staged[threadIdx.x] = i < n ? a[i] : 0.f;                                 \
    __syncthreads();                                                          \
    if (i < n) {                                                              \
      const float x = staged[threadIdx.x], y = b[i];                          \
      c[i] = (expr);                                                          \
    }                                                                         \
  }

DEFINE_ELEMENTWISE(add, x + y)
DEFINE_ELEMENTWISE(mul, x * y)
DEFINE_ELEMENTWISE(axpy, 2.f * x + y)

#define RUN_OP(op, n, ...) op##_kernel<<<((n) + 127) / 128, 128>>>(__VA_ARGS__, n)

int main() {
  const int n = 300;
  std::vector<float> ha(n), hb(n);
  for (int i = 0; i < n; ++i) {
    ha[i] = 0.5f * i;
    hb[i] = 3.f - i;
  }
  float *a, *b, *c;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  cudaMalloc(&c, 3 * n * sizeof(float));
  cudaMemcpy(a, ha.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(b, hb.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  RUN_OP(add, n, a, b, c);
  RUN_OP(mul, n, a, b, c + n);
  RUN_OP(axpy, n, a, b, c + 2 * n);
  std::vector<float> hc(3 * n);
  cudaMemcpy(hc.data(), c, hc.size() * sizeof(float), cudaMemcpyDeviceToHost);
  if (cudaGetLastError() != cudaSuccess) return std::puts("FAIL: a launch failed"), 1;
  for (int i = 0; i < n; ++i) {
    const float x = ha[i], y = hb[i];
    if (hc[i] != x + y || hc[n + i] != x * y || hc[2 * n + i] != 2.f * x + y)
      return std::printf("FAIL: element %d: %g %g %g\n", i, hc[i], hc[n + i], hc[2 * n + i]), 1;
  }
  std::puts("three macro-generated kernels match\nPASS");
  return 0;
}
