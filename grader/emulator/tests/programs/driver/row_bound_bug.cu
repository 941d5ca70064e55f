// A planted bug: each block scales one row of a matrix in place, and the loop bound is `<=` instead of `<`, so the
// last thread's element is the next row's first one. Interior blocks then race with the block that owns that row
// (both read and write it); the last block writes one element past the matrix. Run with "fixed" for the correct
// bound: no report, every element scaled exactly once.
#include <cstdio>
#include <cstring>
#include <vector>

__global__ void scale_rows(float* m, const float* factor, int cols, bool fixed) {
  const int row = blockIdx.x;
  const int end = fixed ? cols - 1 : cols;  // the bug: cols itself is the next row's column 0
  for (int c = threadIdx.x; c <= end; c += blockDim.x) m[row * cols + c] *= factor[row];
}

int main(int argc, char** argv) {
  const bool fixed = argc > 1 && std::strcmp(argv[1], "fixed") == 0;
  const int rows = 4, cols = 64;
  std::vector<float> h(rows * cols, 1.f), f = {2.f, 3.f, 5.f, 7.f};
  float *m, *factor;
  cudaMalloc(&m, h.size() * sizeof(float));
  cudaMalloc(&factor, f.size() * sizeof(float));
  cudaMemcpy(m, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(factor, f.data(), f.size() * sizeof(float), cudaMemcpyHostToDevice);
  scale_rows<<<rows, 64>>>(m, factor, cols, fixed);
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("launch: %s\n", cudaGetErrorName(e));
  if (!fixed) return std::puts(e == cudaSuccess ? "FAIL: the overrun went unreported" : "REPORTED"), e == cudaSuccess;
  cudaMemcpy(h.data(), m, h.size() * sizeof(float), cudaMemcpyDeviceToHost);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      if (h[r * cols + c] != f[r]) return std::printf("FAIL: element (%d,%d) = %g\n", r, c, h[r * cols + c]), 1;
  std::puts("PASS");
  return 0;
}
