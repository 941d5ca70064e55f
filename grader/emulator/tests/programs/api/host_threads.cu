// CUDA called from several host threads at once, the way the samples' simpleCallback and cudaOpenMP do: each thread
// allocates pinned and device memory (typed cudaHostAlloc), makes its own stream, copies in, launches a block
// reduction that needs its barriers, copies out, and adds a stream callback; the main thread checks every result.
// The threads start together, so their calls and launches overlap in time.
#include <atomic>
#include <thread>
#include <vector>

#include "common.cuh"

constexpr int kThreads = 6, kBlocks = 4, kBlock = 128;

// Sums kBlock values per block in shared memory: wrong if a barrier is missed or another launch shares the tile.
__global__ void block_sums(const int* in, int* out) {
  __shared__ int tile[kBlock];
  tile[threadIdx.x] = in[blockIdx.x * kBlock + threadIdx.x];
  __syncthreads();
  for (int half = kBlock / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) tile[threadIdx.x] += tile[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = tile[0];
}

struct Work {
  int id = 0;
  int* host_in = nullptr;
  int* host_out = nullptr;
  std::atomic<int> callbacks{0};
};

void CUDART_CB done(cudaStream_t, cudaError_t status, void* arg) {
  if (status == cudaSuccess) ++static_cast<Work*>(arg)->callbacks;
}

void run(Work& w, std::atomic<int>& ready) {
  ++ready;
  while (ready.load() < kThreads) std::this_thread::yield();  // every thread calls CUDA at the same time
  const int n = kBlocks * kBlock;
  CHECK_CUDA(cudaHostAlloc(&w.host_in, n * sizeof(int), cudaHostAllocPortable));
  CHECK_CUDA(cudaHostAlloc(&w.host_out, kBlocks * sizeof(int), cudaHostAllocDefault));
  for (int i = 0; i < n; ++i) w.host_in[i] = w.id * 1000 + i % 17;
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  int *in, *out;
  CHECK_CUDA(cudaMalloc(&in, n * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&out, kBlocks * sizeof(int)));
  for (int round = 0; round < 3; ++round) {
    CHECK_CUDA(cudaMemcpyAsync(in, w.host_in, n * sizeof(int), cudaMemcpyHostToDevice, stream));
    block_sums<<<kBlocks, kBlock, 0, stream>>>(in, out);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpyAsync(w.host_out, out, kBlocks * sizeof(int), cudaMemcpyDeviceToHost, stream));
    CHECK_CUDA(cudaStreamAddCallback(stream, done, &w, 0));
  }
  CHECK_CUDA(cudaStreamSynchronize(stream));
  CHECK_CUDA(cudaFree(in));
  CHECK_CUDA(cudaFree(out));
  CHECK_CUDA(cudaStreamDestroy(stream));
}

int main() {
  Tally t{"host_threads"};
  std::vector<Work> work(kThreads);
  std::atomic<int> ready{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    work[i].id = i;
    threads.emplace_back(run, std::ref(work[i]), std::ref(ready));
  }
  for (auto& th : threads) th.join();
  for (const Work& w : work) {
    t.equal("callbacks", w.id, w.callbacks.load(), 3);
    for (int b = 0; b < kBlocks; ++b) {
      long long want = 0;
      for (int i = 0; i < kBlock; ++i) want += w.id * 1000 + (b * kBlock + i) % 17;
      t.equal("sum", w.id * kBlocks + b, w.host_out[b], want);
    }
    CHECK_CUDA(cudaFreeHost(w.host_in));
    CHECK_CUDA(cudaFreeHost(w.host_out));
  }
  return t.finish();
}
