// What the corpus programs share: an error-checking macro in the style sample collections use, and a tally of
// mismatches that ends each program with the PASS/FAIL line its test looks for.
#pragma once
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

#define CHECK_CUDA(call)                                                                                 \
  do {                                                                                                   \
    const cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                           \
      std::printf("CUDA error %s (%s) at %s:%d\n", cudaGetErrorName(err_), cudaGetErrorString(err_), __FILE__, \
                  __LINE__);                                                                             \
      std::exit(1);                                                                                      \
    }                                                                                                    \
  } while (0)

struct Tally {
  const char* program;
  int checked = 0, errors = 0;
  // Relative-and-absolute closeness, printing the first few misses.
  void close(const char* what, int index, double got, double want, double tol) {
    ++checked;
    if (std::fabs(got - want) <= tol * (1.0 + std::fabs(want))) return;
    if (errors++ < 5) std::printf("%s[%d]: got %.9g, want %.9g\n", what, index, got, want);
  }
  void equal(const char* what, int index, long long got, long long want) {
    ++checked;
    if (got == want) return;
    if (errors++ < 5) std::printf("%s[%d]: got %lld, want %lld\n", what, index, got, want);
  }
  int finish() const {
    std::printf("%s: %d values checked, %d errors\n%s\n", program, checked, errors, errors ? "FAIL" : "PASS");
    return errors ? 1 : 0;
  }
};
