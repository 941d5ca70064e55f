// A program built around a sample-style helper header (helper_checks.h): its checks exist only if the runtime's
// include guards and version macros are defined, as in CUDA's headers. It queries the device, sizes a launch with
// the occupancy API, reads the kernel's attributes, and launches both with <<<>>> and with cudaLaunchKernel.
#include <cuda_runtime.h>

#include "helper_checks.h"

#include <vector>

#include "common.cuh"

#if !defined(__CUDACC__) || !defined(__NVCC__) || !defined(HELPER_HAS_RUNTIME)
#error "the CUDA compiler macros or the runtime's include guards are missing"
#endif

__global__ void scale_add(const float* __restrict__ x, float* __restrict__ y, float a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] += a * x[i];
}

int main() {
  Tally t{"helper_header"};
  int device = -1;
  checkCudaErrors(cudaGetDevice(&device));
  cudaDeviceProp prop;
  checkCudaErrors(cudaGetDeviceProperties(&prop, device));
  int sms = 0, warp = 0, max_threads = 0;
  checkCudaErrors(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  checkCudaErrors(cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, device));
  checkCudaErrors(cudaDeviceGetAttribute(&max_threads, cudaDevAttrMaxThreadsPerBlock, device));
  t.equal("sms", 0, sms, prop.multiProcessorCount);
  t.equal("warp", 0, warp, 32);
  t.equal("max_threads", 0, max_threads, prop.maxThreadsPerBlock);
  t.equal("cores", 0, cores_per_sm(prop.major, prop.minor) > 0, 1);
  int runtime = 0;
  checkCudaErrors(cudaRuntimeGetVersion(&runtime));
  t.equal("runtime_version", 0, runtime, CUDART_VERSION);

  int min_grid = 0, block = 0;
  checkCudaErrors(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, scale_add, 0, 0));
  t.equal("block_multiple_of_warp", 0, block > 0 && block % 32 == 0 && block <= 1024, 1);
  t.equal("grid_fills_device", 0, min_grid >= sms, 1);
  cudaFuncAttributes attr;
  checkCudaErrors(cudaFuncGetAttributes(&attr, scale_add));
  t.equal("attr_max_threads", 0, attr.maxThreadsPerBlock >= block, 1);

  const int n = 10000;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 7);
    y[i] = static_cast<float>(i % 5);
  }
  float *dx, *dy;
  checkCudaErrors(cudaMalloc(&dx, n * sizeof(float)));
  checkCudaErrors(cudaMalloc(&dy, n * sizeof(float)));
  checkCudaErrors(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  scale_add<<<div_up(n, block), block>>>(dx, dy, 2.0f, n);
  checkCudaErrors(cudaGetLastError());
  float a = -1.0f;
  int nn = n;
  void* args[] = {&dx, &dy, &a, &nn};
  checkCudaErrors(cudaLaunchKernel(scale_add, dim3(4), dim3(128), args, 0, nullptr));
  checkCudaErrors(cudaDeviceSynchronize());
  checkCudaErrors(cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) t.close("y", i, y[i], (i % 5) + 1.0 * (i % 7), 0);
  checkCudaErrors(cudaFree(dx));
  checkCudaErrors(cudaFree(dy));
  return t.finish();
}
