// Thread block clusters are not emulated: a kernel declared with __cluster_dims__ and a call of cg::this_cluster() must
// each be refused at compile time with a message saying so, never built into a program that runs them wrongly.
// -DUSE_THIS_CLUSTER selects the second.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#ifndef USE_THIS_CLUSTER
__global__ void __cluster_dims__(2, 1, 1) pairs(float* p) { p[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f; }
#else
__global__ void pairs(float* p) {
  auto cluster = cg::this_cluster();
  p[threadIdx.x] = static_cast<float>(cluster);
}
#endif

int main() {
  float* p;
  cudaMalloc(&p, 64 * sizeof(float));
  pairs<<<2, 32>>>(p);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
