// Planted bugs around the grid barrier of a cooperative launch, one per mode; a GPU runs none of them correctly:
//   early-exit      block 2 returns before grid.sync(): the other blocks wait for it forever (the GPU hangs)
//   missing-sync    each block reads the partial sum its neighbour writes, with no grid.sync() in between
//   not-cooperative the kernel that calls grid.sync() is launched with <<<>>> (grid.sync() then traps on a GPU)
//   fixed           the same kernel, correct and launched with cudaLaunchCooperativeKernel
// The emulator must name the file:line and the blocks or threads of each bug, and report nothing for `fixed`.
#include <cooperative_groups.h>

#include <cstdio>
#include <cstring>

namespace cg = cooperative_groups;

// Each block writes its own sum of `x`'s slice to partials[block], then adds its right neighbour's.
__global__ void neighbour_sums(const int* x, int per_block, int* partials, int* out, int bug) {
  cg::grid_group grid = cg::this_grid();
  __shared__ int sum;
  if (threadIdx.x == 0) sum = 0;
  __syncthreads();
  atomicAdd(&sum, x[blockIdx.x * per_block + threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0) partials[blockIdx.x] = sum;
  if (bug == 1 && blockIdx.x == 2) return;
  if (bug != 2) grid.sync();
  if (threadIdx.x == 0) out[blockIdx.x] = sum + partials[(blockIdx.x + 1) % gridDim.x];
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "fixed";
  const int bug = std::strcmp(mode, "early-exit") == 0 ? 1 : std::strcmp(mode, "missing-sync") == 0 ? 2 : 0;
  const int blocks = 4, per_block = 64;
  int host[blocks * per_block];
  for (int i = 0; i < blocks * per_block; ++i) host[i] = i;
  int *x, *partials, *out;
  cudaMalloc(&x, sizeof host);
  cudaMalloc(&partials, blocks * sizeof(int));
  cudaMalloc(&out, blocks * sizeof(int));
  cudaMemcpy(x, host, sizeof host, cudaMemcpyHostToDevice);
  int pb = per_block, which = bug;
  if (std::strcmp(mode, "not-cooperative") == 0) {
    neighbour_sums<<<blocks, per_block>>>(x, pb, partials, out, 0);
  } else {
    void* args[] = {&x, &pb, &partials, &out, &which};
    cudaLaunchCooperativeKernel(neighbour_sums, dim3(blocks), dim3(per_block), args);
  }
  const cudaError_t err = cudaDeviceSynchronize();
  std::printf("%s: %s\n", mode, cudaGetErrorName(err));
  if (std::strcmp(mode, "fixed") != 0) return 0;
  int got[blocks];
  cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost);
  bool ok = err == cudaSuccess;
  for (int b = 0; b < blocks; ++b) {
    const int own = per_block * (per_block - 1) / 2 + b * per_block * per_block;
    const int right = per_block * (per_block - 1) / 2 + ((b + 1) % blocks) * per_block * per_block;
    ok = ok && got[b] == own + right;
  }
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
