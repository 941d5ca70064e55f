// LayerNorm over the last dimension of bf16 activations, one block per row: the block's 32-thread tiles reduce with
// cg::reduce and their results meet in shared memory, in two passes (the mean, then the variance about it, which is
// more accurate than E[x^2] - mean^2); bf16 output with fp32 gamma and beta. Checked against a CPU loop.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_bf16.h>

#include <vector>

#include "common.cuh"

namespace cg = cooperative_groups;

constexpr int kThreads = 256;

__device__ float block_sum(cg::thread_block block, float v, float* scratch) {
  auto warp = cg::tiled_partition<32>(block);
  v = cg::reduce(warp, v, cg::plus<float>());
  if (warp.thread_rank() == 0) scratch[warp.meta_group_rank()] = v;
  block.sync();
  float total = 0.f;
  for (int w = 0; w < kThreads / 32; ++w) total += scratch[w];
  block.sync();  // scratch is reused by the next call
  return total;
}

__global__ void layernorm(const __nv_bfloat16* x, const float* gamma, const float* beta, __nv_bfloat16* y, int cols,
                          float eps) {
  __shared__ float scratch[kThreads / 32];
  auto block = cg::this_thread_block();
  const __nv_bfloat16* row = x + static_cast<size_t>(blockIdx.x) * cols;
  float s = 0.f;
  for (int c = threadIdx.x; c < cols; c += kThreads) s += __bfloat162float(row[c]);
  const float mean = block_sum(block, s, scratch) / cols;
  float q = 0.f;
  for (int c = threadIdx.x; c < cols; c += kThreads) {
    const float d = __bfloat162float(row[c]) - mean;
    q += d * d;
  }
  const float rstd = rsqrtf(block_sum(block, q, scratch) / cols + eps);
  for (int c = threadIdx.x; c < cols; c += kThreads)
    y[static_cast<size_t>(blockIdx.x) * cols + c] =
        __float2bfloat16((__bfloat162float(row[c]) - mean) * rstd * gamma[c] + beta[c]);
}

int main() {
  Tally t{"layernorm_cg"};
  const int rows = 5, cols = 768;
  const float eps = 1e-5f;
  std::vector<__nv_bfloat16> x(rows * cols);
  std::vector<float> xf(rows * cols), gamma(cols), beta(cols);
  for (int i = 0; i < rows * cols; ++i) {
    x[i] = __float2bfloat16(static_cast<float>((i * 37) % 101) / 25.0f - 2.0f + (i / cols));
    xf[i] = __bfloat162float(x[i]);
  }
  for (int c = 0; c < cols; ++c) {
    gamma[c] = 0.5f + (c % 7) * 0.125f;
    beta[c] = (c % 3) * 0.25f - 0.25f;
  }
  __nv_bfloat16 *dx, *dy;
  float *dg, *db;
  CHECK_CUDA(cudaMalloc(&dx, x.size() * sizeof(__nv_bfloat16)));
  CHECK_CUDA(cudaMalloc(&dy, x.size() * sizeof(__nv_bfloat16)));
  CHECK_CUDA(cudaMalloc(&dg, cols * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&db, cols * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(dx, x.data(), x.size() * sizeof(__nv_bfloat16), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dg, gamma.data(), cols * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(db, beta.data(), cols * sizeof(float), cudaMemcpyHostToDevice));
  layernorm<<<rows, kThreads>>>(dx, dg, db, dy, cols, eps);
  CHECK_CUDA(cudaGetLastError());
  std::vector<__nv_bfloat16> y(x.size());
  CHECK_CUDA(cudaMemcpy(y.data(), dy, y.size() * sizeof(__nv_bfloat16), cudaMemcpyDeviceToHost));
  for (int r = 0; r < rows; ++r) {
    double mean = 0, var = 0;
    for (int c = 0; c < cols; ++c) mean += xf[r * cols + c];
    mean /= cols;
    for (int c = 0; c < cols; ++c) var += (xf[r * cols + c] - mean) * (xf[r * cols + c] - mean);
    var /= cols;
    for (int c = 0; c < cols; ++c) {
      const double want = (xf[r * cols + c] - mean) / std::sqrt(var + eps) * gamma[c] + beta[c];
      // bf16 output: 8 significant bits, so half an ulp is 2^-8 relative.
      t.close("layernorm", r * cols + c, __bfloat162float(y[r * cols + c]), want, 1.0 / 128);
    }
  }
  cudaFree(dx);
  cudaFree(dy);
  cudaFree(dg);
  cudaFree(db);
  return t.finish();
}
