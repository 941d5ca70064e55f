// After each test: an asynchronous CUDA error that no launch check saw (a kernel still running, a fault reported
// late) must not let the test pass. Under the emulator (WORKBOOK_EMU), any diagnostic the test's own launch checks did
// not collect (race, out-of-bounds or misaligned access, barrier divergence, …) fails it too.
#include <cuda_runtime.h>
#ifdef WORKBOOK_EMU
#include <emu/api.h>
#endif

#include "state.hpp"

namespace wb::state {

std::vector<std::string> backend_after_test(bool test_failed) {
  std::vector<std::string> problems;
  cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess) e = cudaGetLastError();
  if (e != cudaSuccess && !test_failed)
    problems.push_back(std::string("a CUDA error was still pending after the test: ") + cudaGetErrorName(e) + " (" +
                       cudaGetErrorString(e) + ")");
#ifdef WORKBOOK_EMU
  for (auto& d : emu::take_diagnostics()) problems.push_back("the emulator reported:\n" + d);
#endif
  return problems;
}

}  // namespace wb::state
