// A helper header in the style sample collections ship (error-checking macros, device selection, a timer on
// events), written for this corpus. Helper headers like it are included by every program of a collection and only
// work when the compiler driver treats them as CUDA: they use runtime types and launch nothing themselves.
#pragma once
#include <cstdio>
#include <cstdlib>

#ifndef __CUDACC__
#error "cuda_checks.h must be compiled as CUDA (nvcc or emu-nvcc)"
#endif

// Ends the program with the file and line of the failing call, as the samples' checkCudaErrors does.
template <typename T>
void check_result(T result, const char* what, const char* file, int line) {
  if (result != cudaSuccess) {
    std::fprintf(stderr, "CUDA error at %s:%d code=%d (%s) \"%s\"\n", file, line, static_cast<int>(result),
                 cudaGetErrorName(result), what);
    std::exit(EXIT_FAILURE);
  }
}
#define CHECK_CUDA(call) check_result((call), #call, __FILE__, __LINE__)

// After a launch: the launch's own error, then the kernel's (synchronizing).
#define CHECK_LAST_KERNEL(msg)                                     \
  do {                                                            \
    check_result(cudaGetLastError(), msg, __FILE__, __LINE__);    \
    check_result(cudaDeviceSynchronize(), msg, __FILE__, __LINE__); \
  } while (0)

// The device with the most multiprocessors, made current; prints what was chosen.
inline int pick_device() {
  int count = 0;
  CHECK_CUDA(cudaGetDeviceCount(&count));
  int best = 0, best_sms = -1;
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp p;
    CHECK_CUDA(cudaGetDeviceProperties(&p, d));
    if (p.multiProcessorCount > best_sms) {
      best = d;
      best_sms = p.multiProcessorCount;
    }
  }
  cudaDeviceProp p;
  CHECK_CUDA(cudaGetDeviceProperties(&p, best));
  std::printf("device %d: \"%s\" compute capability %d.%d, %d SMs\n", best, p.name, p.major, p.minor,
              p.multiProcessorCount);
  CHECK_CUDA(cudaSetDevice(best));
  return best;
}

// Milliseconds between two events around the work in between.
class EventTimer {
 public:
  EventTimer() {
    CHECK_CUDA(cudaEventCreate(&start_));
    CHECK_CUDA(cudaEventCreate(&stop_));
  }
  ~EventTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  void start() { CHECK_CUDA(cudaEventRecord(start_)); }
  float stop_ms() {
    CHECK_CUDA(cudaEventRecord(stop_));
    CHECK_CUDA(cudaEventSynchronize(stop_));
    float ms = 0.f;
    CHECK_CUDA(cudaEventElapsedTime(&ms, start_, stop_));
    return ms;
  }

 private:
  cudaEvent_t start_{}, stop_{};
};
