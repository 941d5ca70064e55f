// Persistent kernels under cudaLaunchCooperativeKernel, sized with the occupancy API as the CUDA samples size them:
//   * an iterative smoothing (Jacobi steps on a 1-D rod with fixed ends) over several blocks, the steps separated by
//     grid.sync() and ping-ponging two buffers, so each block reads its neighbours' results of the previous step;
//   * a two-phase grid reduction: every block writes its partial sum, grid.sync(), then block 0 adds the partials
//     and shared memory written before the grid barrier is still there after it.
// The reduction runs again through cudaLaunchKernelEx with cudaLaunchAttributeCooperative. A grid larger than an
// H200 can hold at once is refused with cudaErrorCooperativeLaunchTooLarge. The planted bugs
// (a block that never arrives, a missing grid barrier, grid.sync() without a cooperative launch) are in
// grid_sync_bugs.cu.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

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
    cg::sync(grid);  // the free function's form
  }
}

__global__ void grid_sum(const int* x, int n, int* partials, int* total) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  __shared__ int block_total;
  int mine = 0;
  for (int i = static_cast<int>(grid.thread_rank()); i < n; i += static_cast<int>(grid.size())) mine += x[i];
  auto warp = cg::tiled_partition<32>(block);
  const int warp_sum = cg::reduce(warp, mine, cg::plus<int>());
  if (block.thread_rank() == 0) block_total = 0;
  block.sync();
  if (warp.thread_rank() == 0) atomicAdd(&block_total, warp_sum);
  block.sync();
  if (block.thread_rank() == 0) partials[grid.block_rank()] = block_total;
  grid.sync();
  // block_total was written before the grid barrier: this block's shared memory still holds it.
  if (grid.block_rank() == 0 && block.thread_rank() == 0) {
    int sum = 0;
    for (unsigned k = 0; k < grid.num_blocks(); ++k) sum += partials[k];
    total[0] = sum;
    total[1] = block_total;
  }
}

int main() {
  Tally t{"grid_sync"};
  int supports = 0;
  CHECK_CUDA(cudaDeviceGetAttribute(&supports, cudaDevAttrCooperativeLaunch, 0));
  t.equal("cooperative_launch", 0, supports, 1);
  const int threads = 64;
  int per_sm = 0;
  CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, jacobi, threads, 0));
  t.equal("occupancy_positive", 0, per_sm > 0, 1);

  // Jacobi on 6 blocks of 64 threads: 384 threads for 1000 points, so each thread updates two or three of them.
  const int n = 1000, steps = 25, blocks = 6;
  std::vector<float> h(n);
  for (int i = 0; i < n; ++i) h[i] = (i > 400 && i < 600) ? 100.0f : static_cast<float>(i % 10);
  float *a, *b;
  CHECK_CUDA(cudaMalloc(&a, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&b, n * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(a, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  int nn = n, ss = steps;
  void* args[] = {&a, &b, &nn, &ss};
  CHECK_CUDA(cudaLaunchCooperativeKernel(jacobi, dim3(blocks), dim3(threads), args));
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

  // The grid reduction on a 2 x 2 grid of 96-thread blocks (three warps each).
  const int m = 3001;
  std::vector<int> xs(m);
  long long want = 0;
  for (int i = 0; i < m; ++i) want += xs[i] = (i * 37) % 101 - 50;
  int *x, *partials, *total;
  CHECK_CUDA(cudaMalloc(&x, m * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&partials, 4 * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&total, 2 * sizeof(int)));
  CHECK_CUDA(cudaMemcpy(x, xs.data(), m * sizeof(int), cudaMemcpyHostToDevice));
  int mm = m;
  void* sum_args[] = {&x, &mm, &partials, &total};
  CHECK_CUDA(cudaLaunchCooperativeKernel(grid_sum, dim3(2, 2), dim3(96), sum_args));
  CHECK_CUDA(cudaDeviceSynchronize());
  int sums[2], parts[4];
  CHECK_CUDA(cudaMemcpy(sums, total, sizeof sums, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(parts, partials, sizeof parts, cudaMemcpyDeviceToHost));
  t.equal("grid_sum", 0, sums[0], want);
  t.equal("block0_total_kept", 0, sums[1], parts[0]);

  // The same reduction through cudaLaunchKernelEx with the cooperative attribute (as CUDA 12 programs write it), then
  // with a cluster dimension, which the emulator refuses (clusters are not emulated).
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeCooperative;
  attr[0].val.cooperative = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(3);
  config.blockDim = dim3(64);
  config.attrs = attr;
  config.numAttrs = 1;
  CHECK_CUDA(cudaLaunchKernelEx(&config, grid_sum, static_cast<const int*>(x), m, partials, total));
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaMemcpy(sums, total, sizeof sums, cudaMemcpyDeviceToHost));
  t.equal("grid_sum_ex", 0, sums[0], want);
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = 3;
  attr[0].val.clusterDim.y = attr[0].val.clusterDim.z = 1;
  t.equal("cluster_refused", 0, cudaLaunchKernelEx(&config, grid_sum, static_cast<const int*>(x), m, partials, total),
          cudaErrorNotSupported);
  cudaGetLastError();

  // A grid larger than the device can hold at once is refused before it runs (132 SMs times the occupancy), and the
  // refusal is not sticky: the next launch runs.
  t.equal("too_large", 0, cudaLaunchCooperativeKernel(jacobi, dim3(132 * per_sm + 1), dim3(threads), args),
          cudaErrorCooperativeLaunchTooLarge);
  t.equal("after_refusal", 0, cudaGetLastError(), cudaErrorCooperativeLaunchTooLarge);
  ss = 2;
  t.equal("next_launch", 0, cudaLaunchCooperativeKernel(jacobi, dim3(2), dim3(threads), args), cudaSuccess);
  t.equal("next_sync", 0, cudaDeviceSynchronize(), cudaSuccess);
  cudaFree(a);
  cudaFree(b);
  cudaFree(x);
  cudaFree(partials);
  cudaFree(total);
  return t.finish();
}
