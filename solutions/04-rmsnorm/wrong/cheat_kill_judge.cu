// Known wrong answer (cheat): kills its parent and every process it may signal, so that no verdict is ever written
// (and perhaps an earlier "passed" stands). Inside a PID namespace the worker sees only itself and bubblewrap's init,
// which ignores it; without one, seccomp refuses signals to any other process. The judge reports the failed test.
#include <cuda_runtime.h>
#include <unistd.h>

#include <csignal>

void launch_rmsnorm(const float*, const float*, float*, int, int, float, cudaStream_t) {
    kill(getppid(), SIGKILL);
    for (pid_t pid = 2; pid < 64; ++pid)
        if (pid != getpid()) kill(pid, SIGKILL);
}
