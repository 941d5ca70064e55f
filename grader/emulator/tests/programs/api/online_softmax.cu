// Row softmax in one pass over the data ("online softmax"): each thread keeps a running maximum and a sum rescaled
// whenever the maximum grows; the 32-thread tiles then merge their (max, sum) pairs with a user functor through
// cg::reduce, and the warps of a row merge theirs in shared memory. Checked against a two-pass CPU softmax.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <cfloat>
#include <vector>

#include "common.cuh"

namespace cg = cooperative_groups;

struct MaxSum {
  float m, s;
};
// Merging two partial softmax denominators: rescale the one with the smaller maximum.
struct MergeMaxSum {
  __device__ MaxSum operator()(const MaxSum& a, const MaxSum& b) const {
    const float m = fmaxf(a.m, b.m);
    return MaxSum{m, a.s * __expf(a.m - m) + b.s * __expf(b.m - m)};
  }
};

constexpr int kThreads = 128;

__global__ void softmax_rows(const float* x, float* y, int cols) {
  auto block = cg::this_thread_block();
  auto warp = cg::tiled_partition<32>(block);
  const float* row = x + blockIdx.x * cols;
  MaxSum acc{-FLT_MAX, 0.f};
  for (int c = block.thread_rank(); c < cols; c += kThreads) {
    const float v = row[c];
    const float m = fmaxf(acc.m, v);
    acc.s = acc.s * __expf(acc.m - m) + __expf(v - m);
    acc.m = m;
  }
  acc = cg::reduce(warp, acc, MergeMaxSum());
  __shared__ MaxSum per_warp[kThreads / 32];
  if (warp.thread_rank() == 0) per_warp[warp.meta_group_rank()] = acc;
  block.sync();
  MaxSum total = per_warp[0];
  for (int w = 1; w < kThreads / 32; ++w) total = MergeMaxSum()(total, per_warp[w]);
  const float inv = 1.0f / total.s;
  for (int c = block.thread_rank(); c < cols; c += kThreads) y[blockIdx.x * cols + c] = __expf(row[c] - total.m) * inv;
}

int main() {
  Tally t{"online_softmax"};
  const int rows = 6, cols = 1000;
  std::vector<float> x(rows * cols);
  for (int i = 0; i < rows * cols; ++i) x[i] = static_cast<float>((i * 7919) % 200) / 10.0f - 10.0f + (i / cols) * 3.0f;
  float *dx, *dy;
  CHECK_CUDA(cudaMalloc(&dx, x.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dy, x.size() * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(dx, x.data(), x.size() * sizeof(float), cudaMemcpyHostToDevice));
  softmax_rows<<<rows, kThreads>>>(dx, dy, cols);
  CHECK_CUDA(cudaGetLastError());
  std::vector<float> y(x.size());
  CHECK_CUDA(cudaMemcpy(y.data(), dy, y.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (int r = 0; r < rows; ++r) {
    double m = -1e300, s = 0, total = 0;
    for (int c = 0; c < cols; ++c) m = std::fmax(m, x[r * cols + c]);
    for (int c = 0; c < cols; ++c) s += std::exp(x[r * cols + c] - m);
    for (int c = 0; c < cols; ++c) {
      t.close("softmax", r * cols + c, y[r * cols + c], std::exp(x[r * cols + c] - m) / s, 1e-4);
      total += y[r * cols + c];
    }
    t.close("row_sum", r, total, 1.0, 1e-4);
  }
  cudaFree(dx);
  cudaFree(dy);
  return t.finish();
}
