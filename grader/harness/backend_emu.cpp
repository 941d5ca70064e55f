// After a test under the emulator: any diagnostic (race, out-of-bounds or misaligned access, barrier divergence, …)
// that the test's own launch checks did not collect still fails the test.
#include <cuda_runtime.h>
#include <emu/api.h>

#include "state.hpp"

namespace wb::state {

std::vector<std::string> backend_after_test(bool test_failed) {
  std::vector<std::string> problems;
  cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess) e = cudaGetLastError();
  if (e != cudaSuccess && !test_failed)
    problems.push_back(std::string("a CUDA error was still pending after the test: ") + cudaGetErrorName(e) + " (" +
                       cudaGetErrorString(e) + ")");
  for (auto& d : emu::take_diagnostics()) problems.push_back("the emulator reported:\n" + d);
  return problems;
}

}  // namespace wb::state
