// End-to-end program: cub::BlockReduce and cub::WarpReduce as CUDA code uses them, checked against CPU sums.
// Covers whole and partial warps (48 threads), 2-D blocks, num_valid, Reduce with an operator (cuda::maximum:
// CUB 3 in CUDA 13 removed cub::Max), the private-storage constructor, and logical warps of 16 lanes. Values are
// small integers in float, so every order sums exactly and the check is equality. Also the scans and tile moves CUB
// code pairs with them (TensorRT-LLM's cumsum, CUB's block-scan example): a tiled row prefix sum with BlockLoad
// (warp-transpose, guarded, with a default), BlockScan::InclusiveSum with the aggregate carried between tiles and
// BlockStore through one shared union; BlockScan::ExclusiveScan with a max operator and a running-prefix callback;
// WarpScan sums in logical warps of 8. Prints PASS or FAIL.
#include <cub/cub.cuh>
#include <cuda/functional>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#define CUDA_CHECK(expr)                                                                          \
  do {                                                                                            \
    cudaError_t status_ = (expr);                                                                 \
    if (status_ != cudaSuccess) {                                                                 \
      std::printf("FAIL: %s returned %s (%s:%d)\n", #expr, cudaGetErrorString(status_), __FILE__, __LINE__); \
      std::exit(1);                                                                               \
    }                                                                                             \
  } while (0)

// out[block] = {sum, sum of the first num_valid threads, max}; each block reduces its own slice of `in`.
template <int BX, int BY>
__global__ void block_reductions(const float* in, float* out, int num_valid) {
  using Reduce = cub::BlockReduce<float, BX, cub::BLOCK_REDUCE_WARP_REDUCTIONS, BY>;
  __shared__ typename Reduce::TempStorage storage;
  const int tid = threadIdx.x + threadIdx.y * BX;
  const float v = in[blockIdx.x * BX * BY + tid];

  const float sum = Reduce(storage).Sum(v);
  __syncthreads();  // the TempStorage is reused below
  const float partial = Reduce(storage).Sum(v, num_valid);
  __syncthreads();
  const float biggest = Reduce(storage).Reduce(v, cuda::maximum<>());
  if (tid == 0) {
    out[3 * blockIdx.x] = sum;
    out[3 * blockIdx.x + 1] = partial;
    out[3 * blockIdx.x + 2] = biggest;
  }
}

// Private storage (no TempStorage argument), and an items-per-thread array.
__global__ void private_storage_sum(const int* in, int* out) {
  int items[4];
  for (int k = 0; k < 4; ++k) items[k] = in[4 * threadIdx.x + k];
  const int total = cub::BlockReduce<int, 64>().Sum(items);
  if (threadIdx.x == 0) *out = total;
}

// Logical warps of 16 lanes: each writes its sum from its logical lane 0.
__global__ void warp_sums(const int* in, int* out) {
  using WarpReduce = cub::WarpReduce<int, 16>;
  __shared__ typename WarpReduce::TempStorage storage[4];
  const int logical_warp = threadIdx.x / 16;
  const int sum = WarpReduce(storage[logical_warp]).Sum(in[threadIdx.x]);
  const int first3 = WarpReduce(storage[logical_warp]).Sum(in[threadIdx.x], 3);
  if (threadIdx.x % 16 == 0) {
    out[2 * logical_warp] = sum;
    out[2 * logical_warp + 1] = first3;
  }
}

template <int BX, int BY>
static bool check_block(int blocks, int num_valid) {
  constexpr int kThreads = BX * BY;
  std::vector<float> in(static_cast<size_t>(blocks) * kThreads), out(3 * blocks);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(static_cast<int>((i * 7919) % 201) - 100);
  float *d_in, *d_out;
  CUDA_CHECK(cudaMalloc(&d_in, in.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, out.size() * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_in, in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice));
  block_reductions<BX, BY><<<blocks, dim3(BX, BY)>>>(d_in, d_out, num_valid);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  bool ok = true;
  for (int b = 0; b < blocks; ++b) {
    float sum = 0, partial = 0, biggest = in[size_t(b) * kThreads];
    for (int t = 0; t < kThreads; ++t) {
      const float v = in[size_t(b) * kThreads + t];
      sum += v;
      if (t < num_valid) partial += v;
      biggest = v > biggest ? v : biggest;
    }
    if (out[3 * b] != sum || out[3 * b + 1] != partial || out[3 * b + 2] != biggest) {
      std::printf("FAIL block %dx%d #%d num_valid=%d: got %g %g %g, want %g %g %g\n", BX, BY, b, num_valid,
                  out[3 * b], out[3 * b + 1], out[3 * b + 2], sum, partial, biggest);
      ok = false;
    }
  }
  std::printf("%s BlockReduce %dx%d, num_valid %d\n", ok ? "ok  " : "FAIL", BX, BY, num_valid);
  return ok;
}

// Each block scans one row of n floats in tiles of 64 threads x 2 items, carrying the running total between tiles.
__global__ void row_prefix_sums(const float* in, float* out, int n) {
  using Load = cub::BlockLoad<float, 64, 2, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using Scan = cub::BlockScan<float, 64, cub::BLOCK_SCAN_WARP_SCANS>;
  using Store = cub::BlockStore<float, 64, 2, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Scan::TempStorage scan;
    typename Store::TempStorage store;
  } storage;
  const float* row_in = in + blockIdx.x * n;
  float* row_out = out + blockIdx.x * n;
  float carry = 0.0f;
  for (int offset = 0; offset < n; offset += 128) {
    float items[2];
    const int valid = n - offset < 128 ? n - offset : 128;
    Load(storage.load).Load(row_in + offset, items, valid, 0.0f);
    __syncthreads();
    if (threadIdx.x == 0) items[0] += carry;
    float tile_total;
    Scan(storage.scan).InclusiveSum(items, items, tile_total);
    __syncthreads();
    carry = tile_total;
    Store(storage.store).Store(row_out + offset, items, valid);
    __syncthreads();
  }
}

// The running maximum over tiles of 32 ints, exclusive, through a prefix callback that keeps the maximum so far.
struct RunningMax {
  int so_far;
  __device__ int operator()(int tile_max) {
    const int before = so_far;
    so_far = tile_max > so_far ? tile_max : so_far;
    return before;
  }
};
__global__ void running_max(const int* in, int* out, int tiles) {
  using Scan = cub::BlockScan<int, 32>;
  __shared__ typename Scan::TempStorage storage;
  RunningMax prefix{-1000};
  for (int t = 0; t < tiles; ++t) {
    int v = in[t * 32 + threadIdx.x], m;
    Scan(storage).ExclusiveScan(v, m, cuda::maximum<int>(), prefix);
    __syncthreads();
    out[t * 32 + threadIdx.x] = m;
  }
}

// Exclusive and inclusive sums within logical warps of 8 lanes, and each warp's total.
__global__ void warp_scans(const int* in, int* out) {
  using Scan = cub::WarpScan<int, 8>;
  __shared__ typename Scan::TempStorage storage[8];
  const int v = in[threadIdx.x];
  int exclusive, inclusive, total;
  Scan(storage[threadIdx.x / 8]).ExclusiveSum(v, exclusive, total);
  Scan(storage[threadIdx.x / 8]).InclusiveSum(v, inclusive);
  out[3 * threadIdx.x] = exclusive;
  out[3 * threadIdx.x + 1] = inclusive;
  out[3 * threadIdx.x + 2] = total;
}

bool check_scans() {
  bool ok = true;
  const int rows = 2, n = 300;  // two full tiles and a partial one per row
  std::vector<float> in(rows * n), out(rows * n);
  for (int i = 0; i < rows * n; ++i) in[i] = float(i % 7 - 2);
  float *d_in, *d_out;
  CUDA_CHECK(cudaMalloc(&d_in, in.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, out.size() * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_in, in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice));
  row_prefix_sums<<<rows, 64>>>(d_in, d_out, n);
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (int r = 0; r < rows; ++r) {
    float running = 0;
    for (int i = 0; i < n; ++i) {
      running += in[r * n + i];
      if (out[r * n + i] != running) {
        std::printf("FAIL BlockLoad/BlockScan/BlockStore row %d item %d: %g, want %g\n", r, i, out[r * n + i], running);
        ok = false;
        break;
      }
    }
  }
  std::printf("%s BlockLoad + BlockScan::InclusiveSum + BlockStore, tiled rows of %d\n", ok ? "ok  " : "FAIL", n);

  const int tiles = 3;
  std::vector<int> v(tiles * 32), m(tiles * 32), w(64 * 3);
  for (int i = 0; i < tiles * 32; ++i) v[i] = (i * 37) % 101 - 50;
  int *d_v, *d_m;
  CUDA_CHECK(cudaMalloc(&d_v, 64 * sizeof(int) * 3));
  CUDA_CHECK(cudaMalloc(&d_m, 64 * sizeof(int) * 3));
  CUDA_CHECK(cudaMemcpy(d_v, v.data(), v.size() * sizeof(int), cudaMemcpyHostToDevice));
  running_max<<<1, 32>>>(d_v, d_m, tiles);
  CUDA_CHECK(cudaMemcpy(m.data(), d_m, m.size() * sizeof(int), cudaMemcpyDeviceToHost));
  int best = -1000;
  bool max_ok = true;
  for (int i = 0; i < tiles * 32; ++i) {
    max_ok &= m[i] == best;
    best = v[i] > best ? v[i] : best;
  }
  std::printf("%s BlockScan::ExclusiveScan, max with a running-prefix callback\n", max_ok ? "ok  " : "FAIL");
  ok &= max_ok;

  warp_scans<<<1, 64>>>(d_v, d_m);
  CUDA_CHECK(cudaMemcpy(w.data(), d_m, w.size() * sizeof(int), cudaMemcpyDeviceToHost));
  bool warp_ok = true;
  for (int g = 0; g < 8; ++g) {
    int run = 0, total = 0;
    for (int l = 0; l < 8; ++l) total += v[8 * g + l];
    for (int l = 0; l < 8; ++l) {
      const int t = 8 * g + l;
      warp_ok &= w[3 * t] == run && w[3 * t + 1] == run + v[t] && w[3 * t + 2] == total;
      run += v[t];
    }
  }
  std::printf("%s WarpScan<int, 8> exclusive and inclusive sums, warp totals\n", warp_ok ? "ok  " : "FAIL");
  ok &= warp_ok;
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaFree(d_v));
  CUDA_CHECK(cudaFree(d_m));
  return ok;
}

int main() {
  bool ok = true;
  ok &= check_block<256, 1>(3, 100);
  ok &= check_block<48, 1>(2, 40);   // a partial last warp
  ok &= check_block<32, 1>(2, 1);
  ok &= check_block<16, 8>(2, 70);   // 2-D block: linear id x + 16·y
  ok &= check_block<1024, 1>(1, 1000);
  ok &= check_scans();

  std::vector<int> items(256);
  int want = 0;
  for (int i = 0; i < 256; ++i) want += (items[i] = i % 13 - 6);
  int *d_items, *d_total;
  CUDA_CHECK(cudaMalloc(&d_items, items.size() * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_total, 8 * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_items, items.data(), items.size() * sizeof(int), cudaMemcpyHostToDevice));
  private_storage_sum<<<1, 64>>>(d_items, d_total);
  CUDA_CHECK(cudaGetLastError());
  int total = 0;
  CUDA_CHECK(cudaMemcpy(&total, d_total, sizeof(int), cudaMemcpyDeviceToHost));
  std::printf("%s BlockReduce private storage, 4 items per thread: %d (want %d)\n", total == want ? "ok  " : "FAIL",
              total, want);
  ok &= total == want;

  warp_sums<<<1, 64>>>(d_items, d_total);
  CUDA_CHECK(cudaGetLastError());
  int sums[8];
  CUDA_CHECK(cudaMemcpy(sums, d_total, sizeof sums, cudaMemcpyDeviceToHost));
  for (int w = 0; w < 4; ++w) {
    int s = 0, s3 = 0;
    for (int l = 0; l < 16; ++l) s += items[16 * w + l], s3 += l < 3 ? items[16 * w + l] : 0;
    if (sums[2 * w] != s || sums[2 * w + 1] != s3) {
      std::printf("FAIL WarpReduce<int,16> warp %d: %d %d, want %d %d\n", w, sums[2 * w], sums[2 * w + 1], s, s3);
      ok = false;
    }
  }
  std::printf("%s WarpReduce<int, 16>\n", ok ? "ok  " : "FAIL");
  CUDA_CHECK(cudaFree(d_items));
  CUDA_CHECK(cudaFree(d_total));
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
