// Kernel parameters of a class type with a constructor and destructor of its own, the way CUDA by Example's Lock is
// written: CUDA copies a parameter's bytes to the device; the copy constructor runs on the host for the launch's
// copy, and no constructor or destructor runs in device code. Here the destructor frees the buffer every block
// reads (as Lock frees its mutex): if a CUDA thread destroyed its parameter, the next block would read freed memory.
// Each thread also changes its own copy, which must not reach another thread. A kernel with a default argument
// launched without it still takes the plain call. A reference parameter is the caller's object itself (CUDA passes
// its address; with managed memory the kernel changes the host's object), not the launch's copy.
#include <atomic>

#include "common.cuh"

std::atomic<int> g_copies{0};

struct Owner {
  int* data = nullptr;
  int bias = 0;
  Owner(int n, int b) : bias(b) {
    CHECK_CUDA(cudaMalloc(&data, n * sizeof(int)));
    CHECK_CUDA(cudaMemset(data, 0, n * sizeof(int)));
  }
  Owner(const Owner& o) : data(o.data), bias(o.bias) { ++g_copies; }  // host code: a counter on the host
  ~Owner() { cudaFree(data); }  // frees the shared buffer: harmless only if no CUDA thread runs it
};

__global__ void read_through(Owner owner, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  owner.bias += threadIdx.x;  // this thread's copy only
  if (i < n) out[i] = owner.data[i] + owner.bias;
}

__global__ void add_default(int* out, int n, int value = 7) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] += value;
}

struct Totals {
  int sum;
  int launches;
};

__global__ void total_into(Totals& totals, const int& bias, const int* in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&totals.sum, in[i] + bias);
  if (i == 0) totals.launches += 1;
}

int main() {
  Tally t{"kernel_param_bytes"};
  const int blocks = 4, threads = 64, n = blocks * threads;
  int* out;
  CHECK_CUDA(cudaMallocManaged(&out, n * sizeof(int)));
  {
    const Owner owner(n, 100);  // its copies free the buffer when destroyed: only after the grid has run
    read_through<<<blocks, threads>>>(owner, out, n);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    // The launch copies its argument on the host, a few times at most; a copy per CUDA thread would be n.
    t.equal("host copies below one per thread", 0, g_copies.load() < threads ? 1 : 0, 1);
    for (int i = 0; i < n; ++i) t.equal("out", i, out[i], 100 + i % threads);
    add_default<<<blocks, threads>>>(out, n);
    CHECK_CUDA(cudaDeviceSynchronize());
    for (int i = 0; i < n; ++i) t.equal("default", i, out[i], 107 + i % threads);
  }
  Totals* totals;
  int* bias;
  CHECK_CUDA(cudaMallocManaged(&totals, sizeof(Totals)));
  CHECK_CUDA(cudaMallocManaged(&bias, sizeof(int)));
  *totals = Totals{5, 0};
  *bias = 2;
  for (int launch = 0; launch < 2; ++launch) total_into<<<blocks, threads>>>(*totals, *bias, out, n);
  CHECK_CUDA(cudaDeviceSynchronize());
  long long want = 5;
  for (int i = 0; i < n; ++i) want += 2 * (out[i] + 2);
  t.equal("sum through a reference", 0, totals->sum, want);
  t.equal("launches through a reference", 0, totals->launches, 2);
  CHECK_CUDA(cudaFree(totals));
  CHECK_CUDA(cudaFree(bias));
  CHECK_CUDA(cudaFree(out));
  return t.finish();
}
