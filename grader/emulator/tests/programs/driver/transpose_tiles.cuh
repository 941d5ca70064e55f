// Kernels that live in a header, as in most sample collections: a tiled transpose through a __shared__ tile with a
// padding column (no bank conflicts on a GPU), and a block-wide sum whose scratch array is declared here too. The
// emulator must rewrite these __shared__ declarations although the .cu file only includes them.
#pragma once

constexpr int kTile = 16;

__global__ void transpose_tiled(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[kTile][kTile + 1];
  const int c = blockIdx.x * kTile + threadIdx.x;
  const int r = blockIdx.y * kTile + threadIdx.y;
  if (r < rows && c < cols) tile[threadIdx.y][threadIdx.x] = in[r * cols + c];
  __syncthreads();
  // The block writes the transposed tile: its x now walks the input's rows.
  const int oc = blockIdx.y * kTile + threadIdx.x;
  const int orow = blockIdx.x * kTile + threadIdx.y;
  if (orow < cols && oc < rows) out[orow * rows + oc] = tile[threadIdx.x][threadIdx.y];
}

template <int Threads>
__global__ void block_sums(const float* in, float* sums, int n) {
  __shared__ float partial[Threads];
  float v = 0.f;
  for (int i = blockIdx.x * Threads + threadIdx.x; i < n; i += gridDim.x * Threads) v += in[i];
  partial[threadIdx.x] = v;
  __syncthreads();
  for (int stride = Threads / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) sums[blockIdx.x] = partial[0];
}
