// Planted bug: one cub::BlockReduce TempStorage used twice with no __syncthreads between the uses. CUB documents
// that the barrier is required; on a GPU, a fast warp's second write of its warp aggregate can overwrite the slot
// thread 0 is still reading for the first reduction. The emulator must report a shared-memory race here; with the
// "scan" argument the same bug with a cub::BlockScan (a thread's next total overwrites the prefix another thread is
// still reading); the fixed variant ("fixed" argument, both kernels with their barriers) must run clean.
#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

template <int BLOCK>
__global__ void two_sums(const float* a, const float* b, float* out, bool with_barrier) {
  using Reduce = cub::BlockReduce<float, BLOCK>;
  __shared__ typename Reduce::TempStorage storage;
  const float first = Reduce(storage).Sum(a[threadIdx.x]);
  if (with_barrier) __syncthreads();
  const float second = Reduce(storage).Sum(b[threadIdx.x]);
  if (threadIdx.x == 0) {
    out[0] = first;
    out[1] = second;
  }
}

template <int BLOCK>
__global__ void two_scans(const float* a, float* out, bool with_barrier) {
  using Scan = cub::BlockScan<float, BLOCK>;
  __shared__ typename Scan::TempStorage storage;
  float prefix, total;
  Scan(storage).ExclusiveSum(a[threadIdx.x], prefix);
  if (with_barrier) __syncthreads();
  Scan(storage).InclusiveSum(prefix, total);
  out[threadIdx.x] = total;
}

int main(int argc, char** argv) {
  const bool fixed = argc > 1 && std::strcmp(argv[1], "fixed") == 0;
  const bool scan = argc > 1 && std::strcmp(argv[1], "scan") == 0;
  constexpr int kBlock = 128;
  float host[kBlock];
  for (int i = 0; i < kBlock; ++i) host[i] = 1.0f;
  float *a, *out;
  cudaMalloc(&a, sizeof host);
  cudaMalloc(&out, kBlock * sizeof(float));
  cudaMemcpy(a, host, sizeof host, cudaMemcpyHostToDevice);
  if (scan || fixed) {
    two_scans<kBlock><<<1, kBlock>>>(a, out, fixed);
    float totals[kBlock];
    cudaMemcpy(totals, out, sizeof totals, cudaMemcpyDeviceToHost);
    // The prefix sums of ones are 0, 1, 2, ...; their inclusive sums the triangular numbers.
    bool scans_ok = true;
    for (int i = 0; i < kBlock; ++i) scans_ok &= totals[i] == float(i * (i + 1) / 2);
    std::printf("scans %s\n", scans_ok ? "ok" : "wrong");
    if (scan) return 0;
    if (!scans_ok) {
      std::printf("FAIL\n");
      return 1;
    }
  }
  two_sums<kBlock><<<1, kBlock>>>(a, a, out, fixed);
  cudaDeviceSynchronize();
  float sums[2] = {0, 0};
  cudaMemcpy(sums, out, sizeof sums, cudaMemcpyDeviceToHost);
  std::printf("sums %g %g (%s)\n", sums[0], sums[1], cudaGetErrorString(cudaGetLastError()));
  std::printf("%s\n", sums[0] == kBlock && sums[1] == kBlock ? "PASS" : "FAIL");
  return 0;
}
