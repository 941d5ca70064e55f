// Streaming kernels that use the cache-hinted loads and stores (__ldg, __ldcs, __ldcg, __ldca, __ldlu, __ldcv,
// __stcs, __stcg, __stwb, __stwt) on scalars and float4, then reductions with atomics on double, __half,
// __nv_bfloat16, __half2 and __nv_bfloat162, and fences around a "last block" flag. Checked on the host.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <vector>

#include "common.cuh"

__global__ void hinted_copy(const float4* in, const float* scale, float4* out_a, float4* out_b, float* out_c,
                            int n4) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n4) return;
  const float s = __ldg(scale);
  float4 v = __ldcs(in + i);
  const float4 w = __ldcg(in + i);
  v.x = v.x * s + w.x - __ldca(&in[i].x);
  __stcs(out_a + i, v);
  __stcg(out_b + i, make_float4(__ldlu(&in[i].y), __ldcv(&in[i].z), w.w, s));
  __stwb(out_c + 2 * i, v.y);
  __stwt(out_c + 2 * i + 1, v.z);
}

__global__ void low_precision_sums(const float* x, int n, double* sum_d, __half* sum_h, __nv_bfloat16* sum_b,
                                   __half2* sum_h2, __nv_bfloat162* sum_b2, unsigned int* done, int* last_block) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    // Every partial sum, in any order, is a multiple of 0.5 below 128 (or an integer up to 200): exact in half and
    // in bfloat16's 8 significant bits, so the result cannot depend on the order of the atomics.
    const float one = i < 200 ? 1.0f : 0.0f;
    atomicAdd(sum_d, static_cast<double>(x[i]));
    atomicAdd(sum_h, __float2half(x[i]));
    atomicAdd(sum_b, __float2bfloat16(x[i]));
    atomicAdd(sum_h2, __floats2half2_rn(x[i], one));
    atomicAdd(sum_b2, __floats2bfloat162_rn(one, x[i]));
  }
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0 && atomicInc(done, gridDim.x) == gridDim.x - 1) *last_block = blockIdx.x;
}

int main() {
  Tally t{"cache_hints_atomics"};
  const int n4 = 1000, n = 4 * n4;
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i) in[i] = static_cast<float>(i % 11) - 3.0f;
  const float scale = 3.0f;
  float *din, *dscale, *da, *db, *dc;
  CHECK_CUDA(cudaMalloc(&din, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dscale, sizeof(float)));
  CHECK_CUDA(cudaMalloc(&da, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&db, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dc, 2 * n4 * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(din, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dscale, &scale, sizeof scale, cudaMemcpyHostToDevice));
  hinted_copy<<<(n4 + 127) / 128, 128>>>(reinterpret_cast<const float4*>(din), dscale, reinterpret_cast<float4*>(da),
                                        reinterpret_cast<float4*>(db), dc, n4);
  CHECK_CUDA(cudaGetLastError());
  std::vector<float> a(n), b(n), c(2 * n4);
  CHECK_CUDA(cudaMemcpy(a.data(), da, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(b.data(), db, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(c.data(), dc, 2 * n4 * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n4; ++i) {
    const float* v = &in[4 * i];
    t.close("a.x", i, a[4 * i], v[0] * scale + v[0] - v[0], 0);
    t.close("a.w", i, a[4 * i + 3], v[3], 0);
    t.close("b", i, b[4 * i] + b[4 * i + 1] + b[4 * i + 2] + b[4 * i + 3], v[1] + v[2] + v[3] + scale, 0);
    t.close("c", i, c[2 * i] + 10 * c[2 * i + 1], v[1] + 10 * v[2], 0);
  }

  const int m = 512;
  std::vector<float> x(m);
  for (int i = 0; i < m; ++i) x[i] = (i % 3 == 0) ? 0.5f : ((i % 3 == 1) ? -0.5f : 0.0f);
  float* dx;
  double* dsum_d;
  __half *dsum_h;
  __nv_bfloat16* dsum_b;
  __half2* dsum_h2;
  __nv_bfloat162* dsum_b2;
  unsigned int* ddone;
  int* dlast;
  CHECK_CUDA(cudaMalloc(&dx, m * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dsum_d, sizeof(double)));
  CHECK_CUDA(cudaMalloc(&dsum_h, sizeof(__half)));
  CHECK_CUDA(cudaMalloc(&dsum_b, sizeof(__nv_bfloat16)));
  CHECK_CUDA(cudaMalloc(&dsum_h2, sizeof(__half2)));
  CHECK_CUDA(cudaMalloc(&dsum_b2, sizeof(__nv_bfloat162)));
  CHECK_CUDA(cudaMalloc(&ddone, sizeof(unsigned int)));
  CHECK_CUDA(cudaMalloc(&dlast, sizeof(int)));
  CHECK_CUDA(cudaMemcpy(dx, x.data(), m * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(dsum_d, 0, sizeof(double)));
  CHECK_CUDA(cudaMemset(dsum_h, 0, sizeof(__half)));
  CHECK_CUDA(cudaMemset(dsum_b, 0, sizeof(__nv_bfloat16)));
  CHECK_CUDA(cudaMemset(dsum_h2, 0, sizeof(__half2)));
  CHECK_CUDA(cudaMemset(dsum_b2, 0, sizeof(__nv_bfloat162)));
  CHECK_CUDA(cudaMemset(ddone, 0, sizeof(unsigned int)));
  CHECK_CUDA(cudaMemset(dlast, 0xff, sizeof(int)));
  low_precision_sums<<<4, 128>>>(dx, m, dsum_d, dsum_h, dsum_b, dsum_h2, dsum_b2, ddone, dlast);
  CHECK_CUDA(cudaGetLastError());
  double sd = 0;
  __half sh;
  __nv_bfloat16 sb;
  __half2 sh2;
  __nv_bfloat162 sb2;
  int last = -2;
  CHECK_CUDA(cudaMemcpy(&sd, dsum_d, sizeof sd, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(&sh, dsum_h, sizeof sh, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(&sb, dsum_b, sizeof sb, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(&sh2, dsum_h2, sizeof sh2, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(&sb2, dsum_b2, sizeof sb2, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(&last, dlast, sizeof last, cudaMemcpyDeviceToHost));
  double want = 0;
  for (float v : x) want += v;
  t.close("double", 0, sd, want, 0);
  t.close("half", 0, __half2float(sh), want, 0);
  t.close("bf16", 0, __bfloat162float(sb), want, 0);
  t.close("half2.x", 0, __low2float(sh2), want, 0);
  t.close("half2.y", 0, __high2float(sh2), 200, 0);
  t.close("bf162.x", 0, __low2float(sb2), 200, 0);
  t.close("bf162.y", 0, __high2float(sb2), want, 0);
  t.equal("last_block", 0, last >= 0 && last < 4, 1);
  cudaFree(din);
  cudaFree(dscale);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  cudaFree(dx);
  cudaFree(dsum_d);
  cudaFree(dsum_h);
  cudaFree(dsum_b);
  cudaFree(dsum_h2);
  cudaFree(dsum_b2);
  cudaFree(ddone);
  cudaFree(dlast);
  return t.finish();
}
