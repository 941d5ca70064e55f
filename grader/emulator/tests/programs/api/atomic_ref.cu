// libcu++'s atomics as newer CUDA code writes them instead of atomicAdd: cuda::atomic_ref on global memory (an int
// histogram, a float sum through a compare-and-swap loop, a maximum), a block-scope cuda::atomic counter in shared
// memory, and cuda::std::atomic_ref with explicit memory orders; each checked against a CPU loop. With "race", one
// thread also stores to the shared counter with a plain write while the others update it atomically: the memory
// checker must report that race (atomics do not race with each other, but they do with plain accesses). A status
// flag in mapped pinned memory is reached through `volatile cuda::std::atomic<int>*` on both sides, as the blog's
// printf-alternative helper reads its flag (std::atomic's volatile overloads).
#include <cuda/atomic>
#include <cuda/std/atomic>

#include <cstring>
#include <vector>

#include "common.cuh"

__global__ void histogram(const int* x, int n, int* bins, float* sum, int* top, long long* total) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  cuda::atomic_ref<int, cuda::thread_scope_device> bin(bins[x[i] % 8]);
  bin.fetch_add(1, cuda::memory_order_relaxed);
  cuda::atomic_ref<float, cuda::thread_scope_device>(*sum).fetch_add(0.5f * x[i]);
  cuda::atomic_ref<int, cuda::thread_scope_device>(*top).fetch_max(x[i]);
  cuda::std::atomic_ref<long long> t(*total);
  t.fetch_add(x[i], cuda::std::memory_order_acq_rel);
}

__global__ void block_count(unsigned* out, bool race) {
  __shared__ cuda::atomic<unsigned, cuda::thread_scope_block> count;
  if (threadIdx.x == 0) count.store(0, cuda::memory_order_relaxed);
  __syncthreads();
  ++count;
  if (race && threadIdx.x == 5) *count.ptr() = 7;  // a plain store into the atomic's object
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = count.load(cuda::memory_order_acquire);
}

__global__ void raise_flag(cuda::std::atomic<int>* flag) {
  volatile cuda::std::atomic<int>* v = flag;
  v->fetch_add(1, cuda::std::memory_order_relaxed);
  if (threadIdx.x == 0) v->store(v->load(cuda::memory_order_acquire) + 100, cuda::memory_order_release);
}

int main(int argc, char** argv) {
  const bool race = argc > 1 && std::strcmp(argv[1], "race") == 0;
  Tally t{"atomic_ref"};
  const int n = 1000, threads = 128, blocks = (n + threads - 1) / threads;
  std::vector<int> x(n);
  for (int i = 0; i < n; ++i) x[i] = (i * 37) % 101;
  int *d_x, *d_bins, *d_top;
  float* d_sum;
  long long* d_total;
  unsigned* d_count;
  CHECK_CUDA(cudaMalloc(&d_x, n * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_bins, 8 * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_top, sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_sum, sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d_total, sizeof(long long)));
  CHECK_CUDA(cudaMalloc(&d_count, blocks * sizeof(unsigned)));
  CHECK_CUDA(cudaMemcpy(d_x, x.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(d_bins, 0, 8 * sizeof(int)));
  CHECK_CUDA(cudaMemset(d_top, 0, sizeof(int)));
  CHECK_CUDA(cudaMemset(d_sum, 0, sizeof(float)));
  CHECK_CUDA(cudaMemset(d_total, 0, sizeof(long long)));
  histogram<<<blocks, threads>>>(d_x, n, d_bins, d_sum, d_top, d_total);
  block_count<<<blocks, threads>>>(d_count, race);
  CHECK_CUDA(cudaDeviceSynchronize());

  std::vector<int> bins(8);
  int top;
  float sum;
  long long total;
  std::vector<unsigned> count(blocks);
  CHECK_CUDA(cudaMemcpy(bins.data(), d_bins, 8 * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(&top, d_top, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(&sum, d_sum, sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(&total, d_total, sizeof(long long), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(count.data(), d_count, blocks * sizeof(unsigned), cudaMemcpyDeviceToHost));
  std::vector<int> want_bins(8, 0);
  int want_top = 0;
  long long want_total = 0;
  for (int v : x) {
    ++want_bins[v % 8];
    want_top = v > want_top ? v : want_top;
    want_total += v;
  }
  for (int b = 0; b < 8; ++b) t.equal("bins", b, bins[b], want_bins[b]);
  t.equal("top", 0, top, want_top);
  t.equal("total", 0, total, want_total);
  // Halves of integers below 2^24 add exactly in float whatever the order.
  t.close("sum", 0, sum, 0.5 * static_cast<double>(want_total), 0);
  if (!race)
    for (int b = 0; b < blocks; ++b) t.equal("count", b, count[b], threads);
  cuda::std::atomic<int>* flag;
  CHECK_CUDA(cudaHostAlloc(&flag, sizeof(*flag), cudaHostAllocMapped));
  static_cast<volatile cuda::std::atomic<int>*>(flag)->store(0, cuda::memory_order_release);
  raise_flag<<<1, 32>>>(flag);
  CHECK_CUDA(cudaDeviceSynchronize());
  t.equal("volatile flag", 0, static_cast<volatile cuda::std::atomic<int>*>(flag)->load(cuda::memory_order_acquire),
          132);
  CHECK_CUDA(cudaFreeHost(flag));
  cudaFree(d_x);
  cudaFree(d_bins);
  cudaFree(d_top);
  cudaFree(d_sum);
  cudaFree(d_total);
  cudaFree(d_count);
  return t.finish();
}
