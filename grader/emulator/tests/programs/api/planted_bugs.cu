// Planted bugs in small cooperative-groups kernels, one per mode, each of which a GPU may run without complaint:
//   tile-exit  a thread of a 64-thread tile returns before the tile's sync (the others wait for it forever)
//   race       one warp writes a shared slot that another warp reads, with no barrier between them
//   overflow   a shared array of 32 floats indexed with 32 (one past the end)
//   fixed      the three kernels written correctly
// The emulator must name the file:line and the threads of each bug, and report nothing for `fixed`.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <cstdio>
#include <cstring>

namespace cg = cooperative_groups;

__global__ void tile_exit(int* out, bool bug) {
  auto tile = cg::tiled_partition<64>(cg::this_thread_block());
  if (bug && threadIdx.x == 70) return;
  tile.sync();
  out[threadIdx.x] = cg::reduce(tile, 1, cg::plus<int>());
}

__global__ void warp_race(float* out, bool bug) {
  __shared__ float from_warp0[32];
  auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  if (warp.meta_group_rank() == 0) from_warp0[warp.thread_rank()] = 2.0f * warp.thread_rank();
  if (!bug) __syncthreads();
  if (warp.meta_group_rank() == 1) out[warp.thread_rank()] = from_warp0[31 - warp.thread_rank()];
}

__global__ void shared_overflow(float* out, bool bug) {
  __shared__ float row[32];
  auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  row[warp.thread_rank()] = static_cast<float>(warp.thread_rank());
  warp.sync();
  const unsigned next = bug ? warp.thread_rank() + 1 : (warp.thread_rank() + 1) % 32;
  out[warp.thread_rank()] = row[next];
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "fixed";
  const bool fixed = std::strcmp(mode, "fixed") == 0;
  int* ints;
  float* floats;
  cudaMalloc(&ints, 128 * sizeof(int));
  cudaMalloc(&floats, 64 * sizeof(float));
  if (fixed || std::strcmp(mode, "tile-exit") == 0) tile_exit<<<1, 128>>>(ints, !fixed);
  cudaError_t e1 = cudaDeviceSynchronize();
  if (fixed || std::strcmp(mode, "race") == 0) warp_race<<<1, 64>>>(floats, !fixed);
  cudaError_t e2 = cudaDeviceSynchronize();
  if (fixed || std::strcmp(mode, "overflow") == 0) shared_overflow<<<1, 32>>>(floats, !fixed);
  cudaError_t e3 = cudaDeviceSynchronize();
  int sums[128];
  float got[32];
  cudaMemcpy(sums, ints, sizeof sums, cudaMemcpyDeviceToHost);
  cudaMemcpy(got, floats, sizeof got, cudaMemcpyDeviceToHost);
  std::printf("%s: %s %s %s\n", mode, cudaGetErrorName(e1), cudaGetErrorName(e2), cudaGetErrorName(e3));
  if (fixed) {
    bool ok = e1 == cudaSuccess && e2 == cudaSuccess && e3 == cudaSuccess;
    for (int i = 0; i < 128; ++i) ok = ok && sums[i] == 64;
    for (int i = 0; i < 32; ++i) ok = ok && got[i] == static_cast<float>((i + 1) % 32);
    std::printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
  }
  return 0;
}
