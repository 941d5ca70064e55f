// Constant and global device variables: a 1-D convolution whose filter taps live in __constant__ memory (uploaded
// with cudaMemcpyToSymbol, partly at an offset), a __device__ counter of clipped outputs read back with
// cudaMemcpyFromSymbol, and a __device__ lookup table addressed through cudaGetSymbolAddress.
#include <vector>

#include "common.cuh"

constexpr int kTaps = 9;
__constant__ float c_taps[kTaps];
__constant__ float c_clip;
__device__ unsigned int d_clipped;
__device__ int d_offsets[4];

__global__ void convolve(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float acc = 0.f;
  for (int t = 0; t < kTaps; ++t) {
    const int j = i + t - kTaps / 2;
    if (j >= 0 && j < n) acc += c_taps[t] * in[j];
  }
  if (acc > c_clip) {
    acc = c_clip;
    atomicAdd(&d_clipped, 1u);
  }
  out[i] = acc + static_cast<float>(d_offsets[i % 4]);
}

int main() {
  Tally t{"constant_memory"};
  const int n = 3000;
  std::vector<float> in(n), taps(kTaps);
  for (int i = 0; i < n; ++i) in[i] = static_cast<float>((i * 13) % 23) - 5.0f;
  for (int k = 0; k < kTaps; ++k) taps[k] = 1.0f / (1 + (k - kTaps / 2) * (k - kTaps / 2));
  // The first taps in one call, the rest at an offset, as programs that update part of a table do.
  CHECK_CUDA(cudaMemcpyToSymbol(c_taps, taps.data(), 4 * sizeof(float)));
  CHECK_CUDA(cudaMemcpyToSymbol(c_taps, taps.data() + 4, (kTaps - 4) * sizeof(float), 4 * sizeof(float)));
  const float clip = 20.0f;
  CHECK_CUDA(cudaMemcpyToSymbol(c_clip, &clip, sizeof clip));
  const unsigned int zero = 0;
  CHECK_CUDA(cudaMemcpyToSymbol(d_clipped, &zero, sizeof zero));
  int* offsets = nullptr;
  CHECK_CUDA(cudaGetSymbolAddress(reinterpret_cast<void**>(&offsets), d_offsets));
  const int host_offsets[4] = {0, 100, 200, 300};
  CHECK_CUDA(cudaMemcpy(offsets, host_offsets, sizeof host_offsets, cudaMemcpyHostToDevice));
  // Copying past the end of a symbol is refused, as by CUDA.
  t.equal("oversized_copy", 0, cudaMemcpyToSymbol(c_taps, taps.data(), kTaps * sizeof(float), 4), cudaErrorInvalidValue);
  cudaGetLastError();

  float *din, *dout;
  CHECK_CUDA(cudaMalloc(&din, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dout, n * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(din, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  convolve<<<(n + 127) / 128, 128>>>(din, dout, n);
  CHECK_CUDA(cudaGetLastError());
  std::vector<float> out(n);
  CHECK_CUDA(cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  unsigned int clipped = 0;
  CHECK_CUDA(cudaMemcpyFromSymbol(&clipped, d_clipped, sizeof clipped));
  unsigned int want_clipped = 0;
  for (int i = 0; i < n; ++i) {
    float acc = 0.f;
    for (int k = 0; k < kTaps; ++k) {
      const int j = i + k - kTaps / 2;
      if (j >= 0 && j < n) acc += taps[k] * in[j];
    }
    if (acc > clip) {
      acc = clip;
      ++want_clipped;
    }
    t.close("conv", i, out[i], acc + host_offsets[i % 4], 1e-6);
  }
  t.equal("clipped", 0, clipped, want_clipped);
  t.equal("some_clipped", 0, want_clipped > 0, 1);
  cudaFree(din);
  cudaFree(dout);
  return t.finish();
}
