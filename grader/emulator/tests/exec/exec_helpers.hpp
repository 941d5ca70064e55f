// Helpers for the execution-engine tests: launch a lambda as a kernel, the way rewritten `<<<>>>` code does.
#pragma once
#include <cuda_runtime.h>
#include <emu/api.h>

#include <string>
#include <vector>

namespace exec_test {

template <class Body>
void launch(dim3 grid, dim3 block, Body body, std::size_t smem = 0, cudaStream_t stream = 0) {
    ::emu::launch(
        "test_kernel", [&](auto&&...) { body(); }, grid, block, smem, stream)();
}

inline unsigned linear_tid() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }

// Clears the sticky error a faulting launch leaves, and the diagnostics it reported, so each test starts clean.
inline void reset_device() {
    cudaDeviceReset();
    emu::take_diagnostics();
    emu::set_schedule(emu::Schedule::forward);
}

inline bool any_contains(const std::vector<std::string>& diags, const std::string& needle) {
    for (const auto& d : diags)
        if (d.find(needle) != std::string::npos) return true;
    return false;
}

}  // namespace exec_test
