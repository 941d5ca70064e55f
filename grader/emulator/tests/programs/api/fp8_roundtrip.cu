// Per-tensor fp8 quantization as inference code does it: a kernel finds the absolute maximum (a warp reduction with
// __reduce_max_sync on the float bits, which order like integers for non-negative floats), a second one scales
// into E4M3 (saturating) and back, and E5M2 packs of four are round-tripped too. The device results must equal the
// same conversions done on the host, and the error must stay within half an fp8 ulp.
#include <cuda_fp8.h>

#include <cstring>
#include <vector>

#include "common.cuh"

__global__ void absmax(const float* x, int n, unsigned int* bits) {
  unsigned int m = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    m = max(m, __float_as_uint(fabsf(x[i])));
  m = __reduce_max_sync(0xffffffffu, m);
  if (threadIdx.x % 32 == 0) atomicMax(bits, m);
}

__global__ void quantize(const float* x, int n, const unsigned int* amax_bits, __nv_fp8_e4m3* q, float* back) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float scale = 448.0f / __uint_as_float(*amax_bits);
  q[i] = __nv_fp8_e4m3(x[i] * scale);
  back[i] = static_cast<float>(q[i]) / scale;
}

__global__ void pack_e5m2(const float4* x, int n4, __nv_fp8x4_e5m2* q, float4* back) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n4) return;
  q[i] = __nv_fp8x4_e5m2(x[i]);
  back[i] = static_cast<float4>(q[i]);
}

int main() {
  Tally t{"fp8_roundtrip"};
  const int n = 4096;
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i) x[i] = std::sin(0.37f * i) * (1.0f + (i % 50)) * ((i % 3) ? 1.0f : -0.01f);
  float *dx, *dback;
  unsigned int* damax;
  __nv_fp8_e4m3* dq;
  CHECK_CUDA(cudaMalloc(&dx, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dback, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&damax, sizeof(unsigned int)));
  CHECK_CUDA(cudaMalloc(&dq, n * sizeof(__nv_fp8_e4m3)));
  CHECK_CUDA(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(damax, 0, sizeof(unsigned int)));
  absmax<<<4, 256>>>(dx, n, damax);
  quantize<<<n / 256, 256>>>(dx, n, damax, dq, dback);
  CHECK_CUDA(cudaGetLastError());
  unsigned int amax_bits = 0;
  std::vector<__nv_fp8_e4m3> q(n);
  std::vector<float> back(n);
  CHECK_CUDA(cudaMemcpy(&amax_bits, damax, sizeof amax_bits, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(q.data(), dq, n * sizeof(__nv_fp8_e4m3), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(back.data(), dback, n * sizeof(float), cudaMemcpyDeviceToHost));
  float amax = 0;
  for (float v : x) amax = std::fmax(amax, std::fabs(v));
  float amax_dev;
  std::memcpy(&amax_dev, &amax_bits, sizeof amax_dev);
  t.close("amax", 0, amax_dev, amax, 0);
  const float scale = 448.0f / amax;
  for (int i = 0; i < n; ++i) {
    const __nv_fp8_storage_t host = __nv_cvt_float_to_fp8(x[i] * scale, __NV_SATFINITE, __NV_E4M3);
    t.equal("e4m3_bits", i, q[i].__x, host);
    // E4M3 keeps 3 fraction bits: relative error at most 2^-4 for normals, plus the subnormal step 2^-9 / scale.
    t.close("e4m3_error", i, back[i], x[i], 0.0625 + std::ldexp(1.0, -9) / scale);
  }

  const int n4 = n / 4;
  __nv_fp8x4_e5m2* dq4;
  float4* dback4;
  CHECK_CUDA(cudaMalloc(&dq4, n4 * sizeof(__nv_fp8x4_e5m2)));
  CHECK_CUDA(cudaMalloc(&dback4, n4 * sizeof(float4)));
  pack_e5m2<<<(n4 + 127) / 128, 128>>>(reinterpret_cast<const float4*>(dx), n4, dq4, dback4);
  CHECK_CUDA(cudaGetLastError());
  std::vector<__nv_fp8x4_e5m2> q4(n4);
  CHECK_CUDA(cudaMemcpy(q4.data(), dq4, n4 * sizeof(__nv_fp8x4_e5m2), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(back.data(), dback4, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    const unsigned byte = (q4[i / 4].__x >> (8 * (i % 4))) & 0xffu;
    t.equal("e5m2_bits", i, byte, __nv_cvt_float_to_fp8(x[i], __NV_SATFINITE, __NV_E5M2));
    t.close("e5m2_error", i, back[i], x[i], 0.125 + std::ldexp(1.0, -16));
  }
  cudaFree(dx);
  cudaFree(dback);
  cudaFree(damax);
  cudaFree(dq);
  cudaFree(dq4);
  cudaFree(dback4);
  return t.finish();
}
