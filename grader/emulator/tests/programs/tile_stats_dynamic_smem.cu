// End-to-end program: a 2-D grid of blocks, each staging a 16 x 1024 tile of a matrix in 64 KB of dynamic shared
// memory (over the 48 KB default, so the kernel must opt in with cudaFuncSetAttribute), then combining results
// across blocks with atomics on global memory and within a block with atomics on shared memory. The kernel is a
// template whose element type is deduced at the launch: tile_stats<128><<<grid, block, bytes>>>(data, …).
// Checks, against a CPU loop: per-row sums, the largest magnitude, and the count of positive elements; and that the
// same launch without the opt-in fails as on a GPU. Prints PASS or FAIL.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CUDA_CHECK(expr)                                                                          \
  do {                                                                                            \
    cudaError_t status_ = (expr);                                                                 \
    if (status_ != cudaSuccess) {                                                                 \
      std::printf("FAIL: %s returned %s (%s:%d)\n", #expr, cudaGetErrorString(status_), __FILE__, __LINE__); \
      std::exit(1);                                                                               \
    }                                                                                             \
  } while (0)

constexpr int kTileRows = 16;
constexpr int kTileCols = 1024;

template <int BLOCK, typename T>
__global__ void tile_stats(const T* __restrict__ data, int rows, int cols, float* row_sums, unsigned* max_abs_bits,
                           int* positives) {
  extern __shared__ unsigned char smem_raw[];
  T* tile = reinterpret_cast<T*>(smem_raw);
  __shared__ int block_positives;

  const int row0 = blockIdx.y * kTileRows;
  const int col0 = blockIdx.x * kTileCols;
  if (threadIdx.x == 0) block_positives = 0;
  for (int idx = threadIdx.x; idx < kTileRows * kTileCols; idx += BLOCK) {
    const int r = row0 + idx / kTileCols, c = col0 + idx % kTileCols;
    tile[idx] = (r < rows && c < cols) ? data[static_cast<long long>(r) * cols + c] : T(0);
  }
  __syncthreads();  // the tile and the zeroed counter are read by other threads below

  // One thread per tile row: sum it, and fold its largest magnitude into the global maximum (non-negative floats
  // order like their bit patterns, so an integer atomicMax on the bits is a float max).
  for (int r = threadIdx.x; r < kTileRows; r += BLOCK) {
    if (row0 + r >= rows) continue;
    float sum = 0.0f, biggest = 0.0f;
    for (int c = 0; c < kTileCols; ++c) {
      const float v = static_cast<float>(tile[r * kTileCols + c]);
      sum += v;
      biggest = fmaxf(biggest, fabsf(v));
    }
    atomicAdd(&row_sums[row0 + r], sum);
    atomicMax(max_abs_bits, __float_as_uint(biggest));
  }
  int mine = 0;
  for (int idx = threadIdx.x; idx < kTileRows * kTileCols; idx += BLOCK) mine += tile[idx] > T(0) ? 1 : 0;
  atomicAdd(&block_positives, mine);
  __syncthreads();  // all shared increments are in
  if (threadIdx.x == 0) atomicAdd(positives, block_positives);
}

int main() {
  const int rows = 40, cols = 2500;  // neither is a multiple of the tile: the edge tiles are partial
  const size_t smem_bytes = sizeof(float) * kTileRows * kTileCols;  // 64 KB
  std::vector<float> host(static_cast<size_t>(rows) * cols);
  std::srand(7);
  for (float& v : host) v = static_cast<float>(std::rand() % 2001 - 1000) / 64.0f;  // exact in float: sums are exact

  float *data, *row_sums;
  unsigned* max_bits;
  int* positives;
  CUDA_CHECK(cudaMalloc(&data, host.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&row_sums, rows * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&max_bits, sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&positives, sizeof(int)));
  CUDA_CHECK(cudaMemcpy(data, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(row_sums, 0, rows * sizeof(float)));
  CUDA_CHECK(cudaMemset(max_bits, 0, sizeof(unsigned)));
  CUDA_CHECK(cudaMemset(positives, 0, sizeof(int)));

  const dim3 grid((cols + kTileCols - 1) / kTileCols, (rows + kTileRows - 1) / kTileRows);
  bool ok = true;

  // Without the opt-in, more than 48 KB of dynamic shared memory is refused at launch.
  tile_stats<128><<<grid, 128, smem_bytes>>>(data, rows, cols, row_sums, max_bits, positives);
  const cudaError_t refused = cudaGetLastError();
  if (refused == cudaSuccess) {
    std::printf("FAIL: a launch with %zu bytes of dynamic shared memory and no opt-in succeeded\n", smem_bytes);
    ok = false;
  } else {
    std::printf("ok   launch without opt-in refused: %s\n", cudaGetErrorName(refused));
  }

  CUDA_CHECK(cudaFuncSetAttribute(tile_stats<128, float>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  static_cast<int>(smem_bytes)));
  tile_stats<128><<<grid, 128, smem_bytes>>>(data, rows, cols, row_sums, max_bits, positives);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<float> sums(rows);
  unsigned got_max_bits = 0;
  int got_positives = 0;
  CUDA_CHECK(cudaMemcpy(sums.data(), row_sums, rows * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&got_max_bits, max_bits, sizeof(unsigned), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&got_positives, positives, sizeof(int), cudaMemcpyDeviceToHost));

  float want_max = 0.0f;
  int want_positives = 0;
  for (int r = 0; r < rows; ++r) {
    double want = 0.0;
    for (int c = 0; c < cols; ++c) {
      const float v = host[static_cast<size_t>(r) * cols + c];
      want += v;
      want_max = std::fmax(want_max, std::fabs(v));
      want_positives += v > 0.0f;
    }
    // Every partial sum is a multiple of 1/64 below 2^24/64, so float addition is exact in any order.
    if (static_cast<double>(sums[r]) != want) {
      std::printf("FAIL row %d: sum %.9g, want %.9g\n", r, sums[r], want);
      ok = false;
    }
  }
  float got_max;
  std::memcpy(&got_max, &got_max_bits, sizeof got_max);
  if (got_max != want_max) {
    std::printf("FAIL max |x|: %g, want %g\n", got_max, want_max);
    ok = false;
  }
  if (got_positives != want_positives) {
    std::printf("FAIL positives: %d, want %d\n", got_positives, want_positives);
    ok = false;
  }
  CUDA_CHECK(cudaFree(data));
  CUDA_CHECK(cudaFree(row_sums));
  CUDA_CHECK(cudaFree(max_bits));
  CUDA_CHECK(cudaFree(positives));
  std::printf("grid %ux%u, %d positives, max |x| %g\n%s\n", grid.x, grid.y, got_positives, got_max, ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
