// A CUDA program that names every system call the sandbox refuses it: run under `wb-sandbox-run --backend gpu
// --trap`, each refused call raises SIGSYS, and the handler prints the call's number and lets it fail with EPERM,
// as the real filter would. Then it allocates, runs a kernel and checks the result.
#include <cuda_runtime.h>
#include <signal.h>
#include <ucontext.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace {
void on_sigsys(int, siginfo_t* info, void* ctx) {
    auto* regs = static_cast<ucontext_t*>(ctx)->uc_mcontext.gregs;
    char line[128];
    const int n = std::snprintf(line, sizeof line, "refused syscall %d (arguments %lld, %lld)\n", info->si_syscall,
                                static_cast<long long>(regs[REG_RDI]), static_cast<long long>(regs[REG_RSI]));
    (void)!write(2, line, static_cast<size_t>(n));
    // connect (42) answers "no such socket" in the real filter; everything else EPERM.
    regs[REG_RAX] = info->si_syscall == 42 ? -ENOENT : -EPERM;
}

__global__ void add_one(int* p, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += 1;
}
}  // namespace

int main() {
    struct sigaction sa {};
    sa.sa_sigaction = on_sigsys;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSYS, &sa, nullptr);
    int* d = nullptr;
    cudaError_t e = cudaMalloc(&d, 1024 * sizeof(int));
    std::printf("cudaMalloc: %s\n", cudaGetErrorName(e));
    if (e != cudaSuccess) return 1;
    cudaMemset(d, 0, 1024 * sizeof(int));
    add_one<<<4, 256>>>(d, 1024);
    int h[1024];
    e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    std::printf("kernel + copy: %s, h[1023] = %d\n", cudaGetErrorName(e), h[1023]);
    return e == cudaSuccess && h[1023] == 1 ? 0 : 1;
}
