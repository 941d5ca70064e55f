// Sum of an array with cooperative groups: each warp reduces with tile shuffles, the warps' partials meet in shared
// memory, and the first warp finishes with cg::reduce. A second kernel reduces with 128-thread tiles (wider than a
// warp) and checks the tile ranks; a third computes per-tile prefix sums with cg::exclusive_scan.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace cg = cooperative_groups;

#define CHECK_CUDA(call)                                                                     \
  do {                                                                                       \
    cudaError_t err_ = (call);                                                               \
    if (err_ != cudaSuccess) {                                                               \
      std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(err_), __FILE__, __LINE__); \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

constexpr int kBlock = 256;

__device__ float warp_sum(cg::thread_block_tile<32> warp, float v) {
  for (int offset = warp.size() / 2; offset > 0; offset /= 2) v += warp.shfl_down(v, offset);
  return v;
}

__global__ void sum_warps(const float* in, float* out, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  __shared__ float partial[kBlock / 32];

  float v = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) v += in[i];
  v = warp_sum(warp, v);
  if (warp.thread_rank() == 0) partial[warp.meta_group_rank()] = v;
  block.sync();
  if (warp.meta_group_rank() == 0) {
    float w = warp.thread_rank() < warp.meta_group_size() ? partial[warp.thread_rank()] : 0.f;
    w = cg::reduce(warp, w, cg::plus<float>());
    if (warp.thread_rank() == 0) atomicAdd(out, w);
  }
}

// Integer sums with 128-thread tiles: exact, so the result is checked for equality.
__global__ void sum_wide_tiles(const int* in, int* tile_sums, int* max_rank) {
  __shared__ cg::block_tile_memory<kBlock> scratch;
  cg::thread_block block = cg::this_thread_block(scratch);
  auto tile = cg::tiled_partition<128>(block);
  const int v = in[blockIdx.x * blockDim.x + block.thread_rank()];
  const int s = cg::reduce(tile, v, cg::plus<int>());
  const int m = cg::reduce(tile, static_cast<int>(tile.thread_rank()), cg::greater<int>());
  tile.sync();
  if (tile.thread_rank() == 0) {
    tile_sums[blockIdx.x * tile.meta_group_size() + tile.meta_group_rank()] = s;
    max_rank[blockIdx.x * tile.meta_group_size() + tile.meta_group_rank()] = m;
  }
}

__global__ void tile_prefix(const int* in, int* out) {
  auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = cg::exclusive_scan(tile, in[i]) + 1000 * cg::inclusive_scan(tile, in[i], cg::bit_xor<int>());
}

int main() {
  const int n = 5000, blocks = 4;
  std::vector<float> h(n);
  std::vector<int> hi(blocks * kBlock);
  for (int i = 0; i < n; ++i) h[i] = static_cast<float>((i * 37) % 11) * 0.25f;
  for (int i = 0; i < blocks * kBlock; ++i) hi[i] = (i * 7919) % 13 - 6;

  float *d_in, *d_out;
  int *d_ints, *d_tile_sums, *d_max_rank, *d_prefix;
  CHECK_CUDA(cudaMalloc(&d_in, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d_out, sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d_ints, hi.size() * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_tile_sums, blocks * 2 * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_max_rank, blocks * 2 * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_prefix, hi.size() * sizeof(int)));
  CHECK_CUDA(cudaMemcpy(d_in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_ints, hi.data(), hi.size() * sizeof(int), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(d_out, 0, sizeof(float)));

  sum_warps<<<blocks, kBlock>>>(d_in, d_out, n);
  sum_wide_tiles<<<blocks, kBlock>>>(d_ints, d_tile_sums, d_max_rank);
  tile_prefix<<<blocks, kBlock>>>(d_ints, d_prefix);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());

  float got = 0.f;
  std::vector<int> tile_sums(blocks * 2), max_rank(blocks * 2), prefix(hi.size());
  CHECK_CUDA(cudaMemcpy(&got, d_out, sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(tile_sums.data(), d_tile_sums, tile_sums.size() * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(max_rank.data(), d_max_rank, max_rank.size() * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(prefix.data(), d_prefix, prefix.size() * sizeof(int), cudaMemcpyDeviceToHost));

  int errors = 0;
  double want = 0;
  for (float x : h) want += x;
  // Every addend is a multiple of 0.25 and the total stays far below 2^22: exact in float in any order.
  if (got != static_cast<float>(want)) {
    std::printf("sum: got %f, want %f\n", got, want);
    ++errors;
  }
  for (int t = 0; t < blocks * 2; ++t) {
    int s = 0;
    for (int k = 0; k < 128; ++k) s += hi[t * 128 + k];
    if (tile_sums[t] != s || max_rank[t] != 127) {
      std::printf("tile %d: sum %d (want %d), max rank %d\n", t, tile_sums[t], s, max_rank[t]);
      ++errors;
    }
  }
  for (int base = 0; base < static_cast<int>(hi.size()); base += 16) {
    int sum = 0, x = 0;
    for (int k = 0; k < 16; ++k) {
      x ^= hi[base + k];
      const int want_k = sum + 1000 * x;
      if (prefix[base + k] != want_k && errors++ < 5)
        std::printf("prefix[%d] = %d, want %d\n", base + k, prefix[base + k], want_k);
      sum += hi[base + k];
    }
  }
  cudaFree(d_in);
  cudaFree(d_out);
  cudaFree(d_ints);
  cudaFree(d_tile_sums);
  cudaFree(d_max_rank);
  cudaFree(d_prefix);
  std::printf("cg_block_reduce: %d errors\n%s\n", errors, errors ? "FAIL" : "PASS");
  return errors ? 1 : 0;
}
