// bf16 and fp16 elements read straight into calls, as most half-precision kernels read them: `__bfloat162float(x[i])`,
// a helper of the program's own taking the element by value (`to_float(x[i])`, the lesson's rmsnorm_half does this),
// and a shared-memory tile read into `__half2float(tile[k])`. g++ does not instrument such a read, so emu-nvcc wraps
// it (include/emu/arg_read.hpp); the memory checker must see each one.
//   bound   the row loop reads one element past the row (col <= n): the last row's read leaves the buffer
//   race    a warp reads the tile another warp writes, with no __syncthreads() between them
//   fixed   both kernels correct
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstring>
#include <vector>

#include "common.cuh"

__device__ float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }

__global__ void row_sums(const __nv_bfloat16* x, int n, float* out, int bug) {
  const __nv_bfloat16* row = x + blockIdx.x * n;
  if (threadIdx.x != 0) return;
  float s = 0.0f;
  for (int col = 0; bug ? col <= n : col < n; ++col) s += to_float(row[col]) + 0.0f * __bfloat162float(row[col]);
  out[blockIdx.x] = s;
}

__global__ void tile_reverse(const __half* in, float* out, int bug) {
  __shared__ __half tile[64];
  if (threadIdx.x < 32) {
    tile[threadIdx.x] = in[threadIdx.x];
    tile[32 + threadIdx.x] = in[32 + threadIdx.x];
  }
  if (!bug) __syncthreads();
  if (threadIdx.x >= 32) out[threadIdx.x - 32] = __half2float(tile[95 - threadIdx.x]);
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "fixed";
  Tally t{"lowp_call_reads"};
  const int rows = 3, n = 40;
  std::vector<__nv_bfloat16> hx(rows * n);
  for (int i = 0; i < rows * n; ++i) hx[i] = __float2bfloat16(static_cast<float>(i % 13) - 6.0f);
  __nv_bfloat16* x;
  float* sums;
  CHECK_CUDA(cudaMalloc(&x, hx.size() * sizeof(__nv_bfloat16)));
  CHECK_CUDA(cudaMalloc(&sums, rows * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(x, hx.data(), hx.size() * sizeof(__nv_bfloat16), cudaMemcpyHostToDevice));
  row_sums<<<rows, 32>>>(x, n, sums, std::strcmp(mode, "bound") == 0);
  CHECK_CUDA(cudaDeviceSynchronize());
  float hs[rows];
  CHECK_CUDA(cudaMemcpy(hs, sums, sizeof hs, cudaMemcpyDeviceToHost));
  for (int r = 0; r < rows; ++r) {
    double want = 0;
    for (int c = 0; c < n; ++c) want += __bfloat162float(hx[r * n + c]);
    t.close("row_sums", r, hs[r], want, 0);
  }

  std::vector<__half> hin(64);
  for (int i = 0; i < 64; ++i) hin[i] = __float2half(0.25f * i);
  __half* in;
  float* out;
  CHECK_CUDA(cudaMalloc(&in, 64 * sizeof(__half)));
  CHECK_CUDA(cudaMalloc(&out, 32 * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(in, hin.data(), 64 * sizeof(__half), cudaMemcpyHostToDevice));
  tile_reverse<<<1, 64>>>(in, out, std::strcmp(mode, "race") == 0);
  CHECK_CUDA(cudaDeviceSynchronize());
  float ho[32];
  CHECK_CUDA(cudaMemcpy(ho, out, sizeof ho, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 32; ++i) t.close("tile_reverse", i, ho[i], 0.25 * (63 - i), 0);
  cudaFree(x);
  cudaFree(sums);
  cudaFree(in);
  cudaFree(out);
  return t.finish();
}
