// Known wrong answer (cheat): turns its own crash into a clean exit: handlers for SIGSEGV, SIGBUS and SIGABRT that
// end the process with status 0, then a null-pointer write. A worker that ends the program without returning from
// the call fails the test, whatever its exit status.
#include <cuda_runtime.h>
#include <unistd.h>

#include <csignal>

namespace {
void quiet_exit(int) { _exit(0); }
}  // namespace

void launch_rmsnorm(const float*, const float*, float*, int, int, float, cudaStream_t) {
    std::signal(SIGSEGV, quiet_exit);
    std::signal(SIGBUS, quiet_exit);
    std::signal(SIGABRT, quiet_exit);
    *static_cast<volatile int*>(nullptr) = 1;
}
