// After a test on a real device: an asynchronous error that no launch check saw (a kernel still running, or a fault
// reported late) must not let the test pass.
#include <cuda_runtime.h>

#include "state.hpp"

namespace wb::state {

std::vector<std::string> backend_after_test(bool test_failed) {
  std::vector<std::string> problems;
  cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess) e = cudaGetLastError();
  if (e != cudaSuccess && !test_failed)
    problems.push_back(std::string("a CUDA error was still pending after the test: ") + cudaGetErrorName(e) + " (" +
                       cudaGetErrorString(e) + ")");
  return problems;
}

}  // namespace wb::state
