// clock() in a kernel is the multiprocessor's cycle counter, the way the samples' concurrentKernels and simpleHyperQ
// spin for a number of cycles; clock() in host code stays the C library's (the process's CPU time). A kernel waits
// for 2 million ticks of its clock (2 ms of the emulator's nanosecond counter): it must return long before the
// 2 s of CPU time that 2 million ticks of the C library's clock would take.
#include <chrono>
#include <ctime>

#include "common.cuh"

__global__ void spin(long long ticks, long long* waited) {
  const unsigned start = static_cast<unsigned>(clock());
  long long offset = 0;
  while (offset < ticks) offset = static_cast<unsigned>(clock()) - start;  // modulo 2^32, as the samples count
  waited[threadIdx.x] = offset;
}

int main() {
  Tally t{"device_clock"};
  long long* waited;
  CHECK_CUDA(cudaMallocManaged(&waited, 2 * sizeof(long long)));
  const clock_t host_before = clock();
  const auto wall_before = std::chrono::steady_clock::now();
  spin<<<1, 2>>>(2000000, waited);
  CHECK_CUDA(cudaDeviceSynchronize());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_before).count();
  const clock_t host_after = clock();
  t.equal("the spin ended within 0.5 s", 0, seconds < 0.5 ? 1 : 0, 1);
  for (int i = 0; i < 2; ++i) t.equal("waited at least the ticks", i, waited[i] >= 2000000 ? 1 : 0, 1);
  // The host's clock() counts CPU time in CLOCKS_PER_SEC: the launch took some, never more than the wall time.
  const double host_seconds = static_cast<double>(host_after - host_before) / CLOCKS_PER_SEC;
  t.equal("host clock() is the process's CPU time", 0, host_seconds >= 0 && host_seconds <= seconds + 0.01 ? 1 : 0,
          1);
  CHECK_CUDA(cudaFree(waited));
  return t.finish();
}
