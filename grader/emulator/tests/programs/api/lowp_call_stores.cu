// Structs that a call returns, stored straight into memory, as half-precision and vector kernels store them:
// `y[i] = __float2bfloat16(v)`, `tile[k] = __hadd(a, b)`, `out[i] = make_float4(...)`. g++ does not instrument such
// a store (the call writes its result in place), so emu-nvcc materializes the value first (stored_value in
// include/emu/arg_read.hpp); the memory checker must see each store, at its line, with its thread.
//   bound   the conversion loop's guard is `i <= n`: thread (36,0,0) of block (1,0,0) stores past the output
//   race    both warps store their pair sums into the same 32 slots of a shared tile (a race between warps)
//   local   a per-thread array of four bf16 is written at index 4: UBSan's bounds report, with the CUDA thread
//   misaligned  the float4 output starts 4 bytes into its buffer: the make_float4 store is misaligned, as on a GPU
//   fixed   every kernel correct
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstring>
#include <vector>

#include "common.cuh"

__global__ void to_bf16(const float* x, __nv_bfloat16* y, int n, int bug) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (bug ? i <= n : i < n) y[i] = __float2bfloat16(x[i < n ? i : n - 1]);
}

// Each thread adds a pair of inputs in half precision; the tile holds one sum per thread, read back reversed.
__global__ void pair_sums(const __half* in, float* out, int bug) {
  __shared__ __half tile[64];
  const int t = threadIdx.x;
  const int slot = bug ? t % 32 : t;
  tile[slot] = __hadd(in[2 * t], in[2 * t + 1]);
  __syncthreads();
  out[t] = __half2float(tile[63 - t]);
}

// Four bf16 kept per thread, then written out as one float4 of their values.
__global__ void widen4(const float* x, float4* out, int last) {
  const int t = threadIdx.x;
  __nv_bfloat16 keep[4];
  for (int k = 0; k <= last; ++k) keep[k] = __float2bfloat16(x[4 * t + (k & 3)]);
  out[t] = make_float4(__bfloat162float(keep[0]), __bfloat162float(keep[1]), __bfloat162float(keep[2]),
                       __bfloat162float(keep[3]));
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "fixed";
  Tally t{"lowp_call_stores"};

  const int n = 100;
  std::vector<float> hx(n);
  for (int i = 0; i < n; ++i) hx[i] = 0.375f * static_cast<float>(i % 17) - 3.0f;
  float* x;
  __nv_bfloat16* y;
  CHECK_CUDA(cudaMalloc(&x, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&y, n * sizeof(__nv_bfloat16)));
  CHECK_CUDA(cudaMemcpy(x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  to_bf16<<<2, 64>>>(x, y, n, std::strcmp(mode, "bound") == 0);
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<__nv_bfloat16> hy(n);
  CHECK_CUDA(cudaMemcpy(hy.data(), y, n * sizeof(__nv_bfloat16), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) t.close("to_bf16", i, __bfloat162float(hy[i]), hx[i], 0);  // exact in bf16

  std::vector<__half> hin(128);
  for (int i = 0; i < 128; ++i) hin[i] = __float2half(0.5f * static_cast<float>(i));
  __half* in;
  float* sums;
  CHECK_CUDA(cudaMalloc(&in, 128 * sizeof(__half)));
  CHECK_CUDA(cudaMalloc(&sums, 64 * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(in, hin.data(), 128 * sizeof(__half), cudaMemcpyHostToDevice));
  pair_sums<<<1, 64>>>(in, sums, std::strcmp(mode, "race") == 0);
  CHECK_CUDA(cudaDeviceSynchronize());
  float hs[64];
  CHECK_CUDA(cudaMemcpy(hs, sums, sizeof hs, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 64; ++i) t.close("pair_sums", i, hs[i], 0.5 * (2 * (63 - i)) + 0.5 * (2 * (63 - i) + 1), 0);

  float4* wide;
  CHECK_CUDA(cudaMalloc(&wide, 32 * sizeof(float4)));
  std::vector<float> hw(128);
  for (int i = 0; i < 128; ++i) hw[i] = static_cast<float>(i) - 64.0f;
  float* w;
  CHECK_CUDA(cudaMalloc(&w, 128 * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(w, hw.data(), 128 * sizeof(float), cudaMemcpyHostToDevice));
  float4* dst = std::strcmp(mode, "misaligned") == 0 ? reinterpret_cast<float4*>(reinterpret_cast<float*>(wide) + 1)
                                                     : wide;
  widen4<<<1, 32>>>(w, dst, std::strcmp(mode, "local") == 0 ? 4 : 3);
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float4> hwide(32);
  CHECK_CUDA(cudaMemcpy(hwide.data(), wide, 32 * sizeof(float4), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 32; ++i) {
    t.close("widen4.x", i, hwide[i].x, hw[4 * i], 0);
    t.close("widen4.w", i, hwide[i].w, hw[4 * i + 3], 0);
  }

  cudaFree(x);
  cudaFree(y);
  cudaFree(in);
  cudaFree(sums);
  cudaFree(wide);
  cudaFree(w);
  return t.finish();
}
