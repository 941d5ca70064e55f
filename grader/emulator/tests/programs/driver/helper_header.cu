// A program built on a helper header (cuda_checks.h): every call checked, the device picked by its properties, the
// kernel timed with events. The kernel is a histogram of bytes with per-block shared counters merged by atomics.
#include <vector>

#include "cuda_checks.h"

constexpr int kBins = 256;

__global__ void byte_histogram(const unsigned char* data, int n, unsigned int* bins) {
  __shared__ unsigned int local[kBins];
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < kBins; b += blockDim.x)
    if (local[b]) atomicAdd(&bins[b], local[b]);
}

int main() {
  pick_device();
  const int n = 5000;
  std::vector<unsigned char> h(n);
  for (int i = 0; i < n; ++i) h[i] = static_cast<unsigned char>((i * 131 + i / 7) & 0xff);
  unsigned char* d = nullptr;
  unsigned int* bins = nullptr;
  CHECK_CUDA(cudaMalloc(&d, n));
  CHECK_CUDA(cudaMalloc(&bins, kBins * sizeof(unsigned int)));
  CHECK_CUDA(cudaMemcpy(d, h.data(), n, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(bins, 0, kBins * sizeof(unsigned int)));
  EventTimer timer;
  timer.start();
  byte_histogram<<<4, 128>>>(d, n, bins);
  CHECK_LAST_KERNEL("byte_histogram");
  const float ms = timer.stop_ms();
  std::vector<unsigned int> got(kBins), want(kBins, 0);
  CHECK_CUDA(cudaMemcpy(got.data(), bins, kBins * sizeof(unsigned int), cudaMemcpyDeviceToHost));
  for (unsigned char c : h) ++want[c];
  for (int b = 0; b < kBins; ++b)
    if (got[b] != want[b]) return std::printf("FAIL: bin %d holds %u, expected %u\n", b, got[b], want[b]), 1;
  if (!(ms >= 0.f)) return std::printf("FAIL: the event timer measured %g ms\n", ms), 1;
  std::printf("histogram of %d bytes matches (%.3f ms on the emulator's clock, not a GPU measurement)\n", n, ms);
  CHECK_CUDA(cudaFree(d));
  CHECK_CUDA(cudaFree(bins));
  std::puts("PASS");
  return 0;
}
