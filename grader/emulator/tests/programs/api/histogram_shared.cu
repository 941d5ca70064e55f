// Byte histogram in two classic shapes: per-block counters in shared memory updated with shared atomics, merged
// into the global histogram with one global atomic per bin; and a version that packs four 8-bit counters into each
// 32-bit shared word per warp (byte counters), flushed before any can overflow. Checked against a CPU count.
#include <vector>

#include "common.cuh"

constexpr int kBins = 256;

__global__ void histogram_atomics(const unsigned char* data, int n, unsigned int* hist) {
  __shared__ unsigned int local[kBins];
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < kBins; b += blockDim.x)
    if (local[b]) atomicAdd(&hist[b], local[b]);
}

// Each warp owns kBins/4 words; bin b is byte (b % 4) of word b / 4. A warp adds at most 32 per round to a byte, so
// flushing every 7 rounds (224 < 256) keeps every byte counter from wrapping.
constexpr int kWarps = 4;
__global__ void histogram_bytes(const unsigned char* data, int n, unsigned int* hist) {
  __shared__ unsigned int packed[kWarps][kBins / 4];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int w = lane; w < kBins / 4; w += 32) packed[warp][w] = 0;
  __syncwarp();
  const int stride = blockDim.x * gridDim.x;
  int round = 0;
  for (int base = blockIdx.x * blockDim.x; base < n; base += stride, ++round) {
    const int i = base + threadIdx.x;
    if (i < n) {
      const unsigned char v = data[i];
      atomicAdd(&packed[warp][v / 4], 1u << (8 * (v % 4)));
    }
    if (round % 7 == 6 || base + stride >= n) {
      __syncwarp();
      for (int w = lane; w < kBins / 4; w += 32) {
        const unsigned int word = packed[warp][w];
        for (int byte = 0; byte < 4; ++byte) {
          const unsigned int count = (word >> (8 * byte)) & 0xffu;
          if (count) atomicAdd(&hist[4 * w + byte], count);
        }
        packed[warp][w] = 0;
      }
      __syncwarp();
    }
  }
}

int main() {
  Tally t{"histogram_shared"};
  const int n = 1 << 16;
  std::vector<unsigned char> h(n);
  unsigned int seed = 12345;
  for (int i = 0; i < n; ++i) {
    seed = seed * 1664525u + 1013904223u;
    // Skewed, so a few bins get many hits (and byte counters are exercised near their limit).
    h[i] = static_cast<unsigned char>((seed >> 24) % 7 == 0 ? 42 : (seed >> 16) & 0xff);
  }
  std::vector<unsigned int> want(kBins, 0);
  for (unsigned char v : h) ++want[v];

  unsigned char* d_data;
  unsigned int* d_hist;
  CHECK_CUDA(cudaMalloc(&d_data, n));
  CHECK_CUDA(cudaMalloc(&d_hist, kBins * sizeof(unsigned int)));
  CHECK_CUDA(cudaMemcpy(d_data, h.data(), n, cudaMemcpyHostToDevice));
  std::vector<unsigned int> got(kBins);
  for (int version = 0; version < 2; ++version) {
    CHECK_CUDA(cudaMemset(d_hist, 0, kBins * sizeof(unsigned int)));
    if (version == 0) histogram_atomics<<<8, 256>>>(d_data, n, d_hist);
    else histogram_bytes<<<8, 32 * kWarps>>>(d_data, n, d_hist);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(got.data(), d_hist, kBins * sizeof(unsigned int), cudaMemcpyDeviceToHost));
    for (int b = 0; b < kBins; ++b) t.equal(version == 0 ? "atomics" : "bytes", b, got[b], want[b]);
  }
  cudaFree(d_data);
  cudaFree(d_hist);
  return t.finish();
}
