// Kernels that end the process (a fault, a stack overflow, a hang that spins, one that waits): each mode is run by
// CTest as its own process, which passes when stderr explains the failure; and one that waits, then returns.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>

#include "exec_helpers.hpp"

namespace {

__attribute__((noinline)) int recurse(volatile int depth) {
    volatile char frame[512];
    frame[0] = static_cast<char>(depth);
    return depth > 1000000 ? frame[0] : recurse(depth + 1) + frame[0];
}

}  // namespace

int main(int argc, char** argv) {
    const char* mode = argc > 1 ? argv[1] : "";
    if (std::strcmp(mode, "stack-overflow") == 0) {
        exec_test::launch(1, 4, [] {
            if (threadIdx.x == 2) recurse(0);
        });
    } else if (std::strcmp(mode, "segv") == 0) {
        exec_test::launch(2, 8, [] {
            if (blockIdx.x == 1 && threadIdx.x == 6) {
                volatile int* p = reinterpret_cast<int*>(16);
                *p = 1;
            }
        });
    } else if (std::strcmp(mode, "hang") == 0) {
        exec_test::launch(1, 64, [] {
            if (threadIdx.x == 3) {
                volatile int spin = 1;
                while (spin) {}
            }
            __syncthreads();
        });
    } else if (std::strcmp(mode, "blocked") == 0) {
        // A hang that does not spin: the thread waits in a call, using no CPU time; the wall clock's backstop ends it.
        exec_test::launch(1, 64, [] {
            if (threadIdx.x == 3) std::this_thread::sleep_for(std::chrono::seconds(60));
            __syncthreads();
        });
    } else if (std::strcmp(mode, "waits") == 0) {
        // Not a hang: a block that waits longer in wall time than its CPU limit, and well under the backstop,
        // completes (the watchdog counts the CPU time a block spends, not the time the machine takes to give it).
        exec_test::launch(1, 64, [] {
            if (threadIdx.x == 3) std::this_thread::sleep_for(std::chrono::milliseconds(1500));
            __syncthreads();
        });
    } else if (std::strcmp(mode, "fpe") == 0) {
        exec_test::launch(1, 2, [] {
            volatile int zero = 0;
            volatile int x = 7 / zero;
            (void)x;
        });
    }
    std::puts("kernel returned");
    return 0;
}
