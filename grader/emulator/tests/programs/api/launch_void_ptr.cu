// Launches through the runtime API with the kernel cast to void*, the way many samples and frameworks write them
// (the kernel's address stored in a table, or passed through C code):
//   * cudaLaunchKernel((void*)row_scale, …) with an argument array, on a stream;
//   * cudaFuncSetAttribute((void*)…, cudaFuncAttributeMaxDynamicSharedMemorySize) to allow 64 KiB of dynamic shared
//     memory, cudaFuncGetAttributes on the same void*, then the launch that needs it;
//   * cudaLaunchCooperativeKernel((void*)…) of a kernel in a namespace that calls grid.sync();
//   * a template instance cast to void* is refused (cudaErrorInvalidDeviceFunction), as the emulator cannot give it
//     its parameter types back.
// Mode `bug`: row_scale's bound is off by one (col <= cols), so the last thread of each row writes the first element
// of the next row, and the last row's writes past the buffer: reported at file:line with the thread.
#include <cooperative_groups.h>

#include <cstring>
#include <vector>

#include "common.cuh"

namespace cg = cooperative_groups;

__global__ void row_scale(float* m, int rows, int cols, float s, int bug) {
  const int row = blockIdx.x, col = threadIdx.x;
  if (row < rows && (bug ? col <= cols : col < cols)) m[row * cols + col] *= s;
}

__global__ void reverse_in_shared(const float* in, float* out, int n) {
  extern __shared__ float tile[];
  for (int i = threadIdx.x; i < n; i += blockDim.x) tile[i] = in[i];
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = tile[n - 1 - i];
}

namespace phases {
__global__ void prefix_of_blocks(int* v) {
  cg::grid_group grid = cg::this_grid();
  if (threadIdx.x == 0) v[blockIdx.x] = static_cast<int>(blockIdx.x) + 1;
  grid.sync();
  if (threadIdx.x == 0 && blockIdx.x == 0)
    for (unsigned b = 1; b < gridDim.x; ++b) v[b] += v[b - 1];
}
}  // namespace phases

template <int K>
__global__ void add_k(int* v) { v[threadIdx.x] += K; }

int main(int argc, char** argv) {
  const bool bug = argc > 1 && std::strcmp(argv[1], "bug") == 0;
  Tally t{"launch_void_ptr"};
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));

  const int rows = 4, cols = 48;
  std::vector<float> h(rows * cols);
  for (int i = 0; i < rows * cols; ++i) h[i] = static_cast<float>(i);
  float* m;
  CHECK_CUDA(cudaMalloc(&m, h.size() * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(m, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice));
  int r = rows, c = cols, which = bug;
  float s = 0.5f;
  void* args[] = {&m, &r, &c, &s, &which};
  CHECK_CUDA(cudaLaunchKernel(reinterpret_cast<void*>(row_scale), dim3(rows), dim3(64), args, 0, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  std::vector<float> got(h.size());
  CHECK_CUDA(cudaMemcpy(got.data(), m, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < rows * cols; ++i) t.close("row_scale", i, got[i], 0.5 * i, 0);

  const int n = 16384;   // 64 KiB of floats: more than the default 48 KiB of dynamic shared memory
  const void* rev = reinterpret_cast<const void*>(reverse_in_shared);
  CHECK_CUDA(cudaFuncSetAttribute(rev, cudaFuncAttributeMaxDynamicSharedMemorySize, n * sizeof(float)));
  cudaFuncAttributes attr{};
  CHECK_CUDA(cudaFuncGetAttributes(&attr, rev));
  t.equal("max_dynamic_smem", 0, attr.maxDynamicSharedSizeBytes, n * sizeof(float));
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i) in[i] = static_cast<float>(i % 977);
  float *din, *dout;
  CHECK_CUDA(cudaMalloc(&din, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dout, n * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(din, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  int nn = n;
  void* rev_args[] = {&din, &dout, &nn};
  CHECK_CUDA(cudaLaunchKernel(rev, dim3(1), dim3(256), rev_args, n * sizeof(float), 0));
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float> out(n);
  CHECK_CUDA(cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i += 97) t.close("reverse", i, out[i], in[n - 1 - i], 0);

  int* v;
  CHECK_CUDA(cudaMalloc(&v, 8 * sizeof(int)));
  void* v_args[] = {&v};
  CHECK_CUDA(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(phases::prefix_of_blocks), dim3(8), dim3(32), v_args));
  CHECK_CUDA(cudaDeviceSynchronize());
  int pv[8];
  CHECK_CUDA(cudaMemcpy(pv, v, sizeof pv, cudaMemcpyDeviceToHost));
  for (int b = 0; b < 8; ++b) t.equal("prefix_of_blocks", b, pv[b], (b + 1) * (b + 2) / 2);

  t.equal("template_refused", 0, cudaLaunchKernel(reinterpret_cast<void*>(add_k<3>), dim3(1), dim3(8), v_args),
          cudaErrorInvalidDeviceFunction);
  cudaGetLastError();
  t.equal("template_typed", 0, cudaLaunchKernel(add_k<3>, dim3(1), dim3(8), v_args), cudaSuccess);
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaMemcpy(pv, v, sizeof pv, cudaMemcpyDeviceToHost));
  t.equal("template_typed_result", 0, pv[7], 36 + 3);

  cudaFree(m);
  cudaFree(din);
  cudaFree(dout);
  cudaFree(v);
  cudaStreamDestroy(stream);
  return t.finish();
}
