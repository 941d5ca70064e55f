// A helper header in the style sample collections ship next to their programs: error checks that exist only when
// the CUDA runtime's headers were seen first (tested through their include guards and version macros), a device
// query, and a launch-size helper. Nothing here is emulator-specific.
#pragma once
#include <cstdio>
#include <cstdlib>

#ifdef __DRIVER_TYPES_H__
inline const char* error_enum_name(cudaError_t error) { return cudaGetErrorName(error); }
#define checkCudaErrors(val) check_result((val), #val, __FILE__, __LINE__)
template <typename T>
void check_result(T result, const char* func, const char* file, int line) {
  if (result) {
    std::fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\"\n", file, line, static_cast<int>(result),
                 error_enum_name(result), func);
    std::exit(EXIT_FAILURE);
  }
}
#endif

#if defined(__CUDA_RUNTIME_H__) && defined(CUDART_VERSION) && CUDART_VERSION >= 11000
#define HELPER_HAS_RUNTIME 1
// Cores per SM for the architectures the samples know (the table they carry), by compute capability.
inline int cores_per_sm(int major, int minor) {
  struct Entry {
    int sm, cores;
  };
  const Entry table[] = {{0x70, 64}, {0x75, 64}, {0x80, 64}, {0x86, 128}, {0x89, 128}, {0x90, 128}};
  for (const Entry& e : table)
    if (e.sm == ((major << 4) + minor)) return e.cores;
  return 128;
}
#endif

inline int div_up(int a, int b) { return (a + b - 1) / b; }
