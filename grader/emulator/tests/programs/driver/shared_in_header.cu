// Kernels and their __shared__ arrays come from an included header (transpose_tiles.cuh); this file only launches.
// Checks a 45 x 37 transpose element for element and block sums against a CPU loop.
#include <cmath>
#include <cstdio>
#include <vector>

#include "transpose_tiles.cuh"

int main() {
  const int rows = 45, cols = 37;
  std::vector<float> h(rows * cols);
  for (int i = 0; i < rows * cols; ++i) h[i] = static_cast<float>((i * 7919) % 1000) / 8.f;
  float *in, *out, *sums;
  cudaMalloc(&in, h.size() * sizeof(float));
  cudaMalloc(&out, h.size() * sizeof(float));
  cudaMemcpy(in, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice);
  const dim3 block(kTile, kTile), grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
  transpose_tiled<<<grid, block>>>(in, out, rows, cols);
  const int blocks = 5;
  cudaMalloc(&sums, blocks * sizeof(float));
  block_sums<64><<<blocks, 64>>>(in, sums, rows * cols);
  std::vector<float> t(h.size()), s(blocks);
  cudaMemcpy(t.data(), out, t.size() * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(s.data(), sums, s.size() * sizeof(float), cudaMemcpyDeviceToHost);
  if (cudaGetLastError() != cudaSuccess) return std::puts("FAIL: a launch failed"), 1;
  int bad = 0;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) bad += t[c * rows + r] != h[r * cols + c];
  double total = 0, expect = 0;
  for (float v : s) total += v;
  for (float v : h) expect += v;
  if (bad) return std::printf("FAIL: %d transposed elements differ\n", bad), 1;
  if (std::fabs(total - expect) > 1e-3 * expect) return std::printf("FAIL: sum %g, expected %g\n", total, expect), 1;
  std::printf("transpose %dx%d and %d block sums match\nPASS\n", rows, cols, blocks);
  return 0;
}
