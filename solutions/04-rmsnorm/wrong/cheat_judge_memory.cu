// Known wrong answer (cheat): tries to read the expected values out of the judge: ptrace, process_vm_readv and
// /proc/<pid>/mem of every process it can see, then copies whatever floats it found into the output. The worker
// runs in a PID namespace (or under seccomp without one) and the judge is not dumpable: every route is refused.
#include <cuda_runtime.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

void launch_rmsnorm(const float*, const float*, float* output, int M, int N, float, cudaStream_t) {
    std::vector<float> found(static_cast<size_t>(M) * N, 0.0f);
    DIR* proc = opendir("/proc");
    while (proc && (readdir(proc) != nullptr)) {
    }
    if (proc) closedir(proc);
    for (pid_t pid = 1; pid < 4096; ++pid) {
        if (pid == getpid()) continue;
        ptrace(PTRACE_ATTACH, pid, nullptr, nullptr);
        iovec local{found.data(), found.size() * sizeof(float)}, remote{reinterpret_cast<void*>(0x10000), local.iov_len};
        process_vm_readv(pid, &local, 1, &remote, 1, 0);
        int fd = open(("/proc/" + std::to_string(pid) + "/mem").c_str(), O_RDONLY);
        if (fd >= 0) {
            (void)pread(fd, found.data(), local.iov_len, 0x10000);
            close(fd);
        }
    }
    cudaMemcpy(output, found.data(), found.size() * sizeof(float), cudaMemcpyHostToDevice);
}
