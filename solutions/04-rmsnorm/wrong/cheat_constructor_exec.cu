// Known wrong answer (cheat): code that runs before the worker's main (a static constructor) replaces the worker
// with a shell that prints a passing result and leaves a file behind. Exec is the one call the first filter allows
// (to start the worker); the shell still runs inside the sandbox: its file lands nowhere, and the judge sees a
// worker that ended without answering.
#include <cuda_runtime.h>
#include <unistd.h>

namespace {
struct Hijack {
    Hijack() {
        const char* argv[] = {"/bin/sh", "-c",
                              "echo '{\"status\": \"passed\"}'; echo x > /tmp/wb-cheat-exec-canary", nullptr};
        execv(argv[0], const_cast<char* const*>(argv));
    }
} hijack;
}  // namespace

void launch_rmsnorm(const float*, const float*, float*, int, int, float, cudaStream_t) {}
