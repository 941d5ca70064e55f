// A persistent kernel under cudaLaunchCooperativeKernel: the grid runs several phases of an iterative smoothing
// (Jacobi steps on a 1-D rod with fixed ends) separated by grid.sync(), ping-ponging two buffers, and the occupancy
// API sizes the launch as the CUDA samples do. The grid is one block: the emulator runs blocks one at a time, so it
// keeps a grid barrier only for one block and refuses larger cooperative grids that call grid.sync() (tested in
// tests/exec/cooperative_groups_test.cpp).
#include <cooperative_groups.h>

#include <vector>

#include "common.cuh"

namespace cg = cooperative_groups;

__global__ void jacobi(float* a, float* b, int n, int steps) {
  cg::grid_group grid = cg::this_grid();
  for (int s = 0; s < steps; ++s) {
    const float* src = s % 2 ? b : a;
    float* dst = s % 2 ? a : b;
    for (int i = static_cast<int>(grid.thread_rank()); i < n; i += static_cast<int>(grid.size()))
      dst[i] = (i == 0 || i == n - 1) ? src[i] : 0.25f * src[i - 1] + 0.5f * src[i] + 0.25f * src[i + 1];
    grid.sync();
  }
}

int main() {
  Tally t{"grid_sync"};
  int supports = 0;
  CHECK_CUDA(cudaDeviceGetAttribute(&supports, cudaDevAttrCooperativeLaunch, 0));
  t.equal("cooperative_launch", 0, supports, 1);
  const int threads = 256;
  int per_sm = 0;
  CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, jacobi, threads, 0));
  t.equal("occupancy_positive", 0, per_sm > 0, 1);

  const int n = 1000, steps = 25;
  std::vector<float> h(n);
  for (int i = 0; i < n; ++i) h[i] = (i > 400 && i < 600) ? 100.0f : static_cast<float>(i % 10);
  float *a, *b;
  CHECK_CUDA(cudaMalloc(&a, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&b, n * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(a, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  int nn = n, ss = steps;
  void* args[] = {&a, &b, &nn, &ss};
  CHECK_CUDA(cudaLaunchCooperativeKernel(jacobi, dim3(1), dim3(threads), args));
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float> got(n);
  CHECK_CUDA(cudaMemcpy(got.data(), steps % 2 ? b : a, n * sizeof(float), cudaMemcpyDeviceToHost));
  std::vector<float> cur(h), next(n);
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i < n; ++i)
      next[i] = (i == 0 || i == n - 1) ? cur[i] : 0.25f * cur[i - 1] + 0.5f * cur[i] + 0.25f * cur[i + 1];
    cur.swap(next);
  }
  for (int i = 0; i < n; ++i) t.close("jacobi", i, got[i], cur[i], 1e-6);

  // A grid larger than the device can hold at once is refused before it runs.
  t.equal("too_large", 0, cudaLaunchCooperativeKernel(jacobi, dim3(132 * per_sm + 1), dim3(threads), args),
          cudaErrorCooperativeLaunchTooLarge);
  cudaGetLastError();
  cudaFree(a);
  cudaFree(b);
  return t.finish();
}
