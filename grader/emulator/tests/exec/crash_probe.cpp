// Kernels that end the process (a fault, a stack overflow, a hang): each mode is run by CTest as its own process,
// which passes when stderr explains the failure.
#include <cstdio>
#include <cstring>

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
