// Undefined behaviour inside a kernel is a diagnostic: bit masks built as `1 << bit` for bit = 0 … 32 shift a 32-bit
// int by 32 in the last thread. UBSan catches it; the emulator reports the CUDA thread, block and line, the launch
// fails with a GPU error, and the program goes on (it checks the error and runs a correct kernel after a reset).
// With the argument "fixed" the masks are built in 64 bits and nothing is reported; with "host" the same shift in
// host code is left to UBSan (its message, then the process ends).
#include <cstdio>
#include <cstring>

__global__ void masks(unsigned long long* out, int bits, bool fixed) {
  const int bit = threadIdx.x;
  if (bit > bits) return;
  if (fixed) out[bit] = 1ull << bit;
  else out[bit] = static_cast<unsigned>(1 << bit);  // bit == 32 is undefined
}

int main(int argc, char** argv) {
  const bool fixed = argc > 1 && std::strcmp(argv[1], "fixed") == 0;
  if (argc > 1 && std::strcmp(argv[1], "host") == 0) {
    // The same undefined shift in host code: UBSan's own report, and the process ends, as without the emulator.
    volatile int bit = 32;
    std::printf("host shift next\n");  // printed before the report, although abort() ends the process (piped stdout)
    std::printf("%u\n", static_cast<unsigned>(1 << bit));
    return 0;
  }
  unsigned long long* out;
  cudaMallocManaged(&out, 33 * sizeof(unsigned long long));
  masks<<<1, 64>>>(out, 32, fixed);
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("launch: %s\n", cudaGetErrorName(e));
  if (fixed) {
    if (e != cudaSuccess) return std::puts("FAIL"), 1;
    for (int b = 0; b <= 32; ++b)
      if (out[b] != 1ull << b) return std::printf("FAIL: mask %d\n", b), 1;
    std::puts("PASS");
    return 0;
  }
  if (e == cudaSuccess) return std::puts("FAIL: the shift by 32 went unreported"), 1;
  // The process survived the kernel's undefined behaviour: clear the sticky error and keep working.
  cudaDeviceReset();
  cudaMallocManaged(&out, 33 * sizeof(unsigned long long));
  masks<<<1, 64>>>(out, 31, false);
  if (cudaDeviceSynchronize() != cudaSuccess || out[31] != 0x80000000ull) return std::puts("FAIL: after reset"), 1;
  std::puts("survived: the next launch ran\nREPORTED");
  return 0;
}
