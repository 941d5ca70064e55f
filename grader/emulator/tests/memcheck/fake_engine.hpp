// A stand-in for the execution engine, for unit tests of the memory checker alone: no fibers; a "kernel" is a list
// of phases, each run by every thread of the block in turn, with or without a barrier after it. That is exactly how
// the real scheduler orders threads between barriers, so the checker sees the same sequence of accesses.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "exec.hpp"

namespace fake {

struct Phase {
    std::function<void(unsigned tid)> body;
    bool barrier_after = true;    // __syncthreads() after this phase
    bool syncwarp_after = false;  // __syncwarp() (all warps) after this phase
};

enum class Order { forward, reverse };

struct Launch {
    const char* name = "kernel";
    unsigned blocks = 1;
    emu::rt::Dim3 block;
    std::size_t dynamic_shared = 0;
    Order order = Order::forward;
};

// Runs the kernel; returns the cudaError_t the launch ended with (0, or what abort_launch was given).
int run(const Launch& l, const std::vector<Phase>& phases);

// Diagnostics reported since the last call (kind + message), and clears them.
struct Diag {
    std::string kind, message;
};
std::vector<Diag> take();

}  // namespace fake
