// wb-sandbox-run: runs any program inside the worker's sandbox, to see what a submission's process may do on this
// machine (for instructors and for diagnosing a machine where the sandbox refuses what a GPU driver needs).
//
//   wb-sandbox-run [--backend emu|gpu] [--mode auto|bwrap|none] [--trap] [--allow SYSCALL]… [--wrapper WORD]…
//                  -- PROGRAM [ARGS…]
//
// --wrapper: the program runs under this one (its words in order), as a worker runs under compute-sanitizer for
// SANITIZE=1.
// --trap: every call the seccomp filter refuses raises SIGSYS instead of failing with an errno; a program that
// handles SIGSYS can print them (see selftest/gpu_sandbox_probe.cu). --allow: leave a syscall out of the filter, to
// find which one a program needs. Prints the layers in force and the exit status.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "sandbox.hpp"

int main(int argc, char** argv) {
    wb::sandbox::Options o;
    std::vector<std::string> program;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--backend" && i + 1 < argc) o.backend = argv[++i];
        else if (a == "--mode" && i + 1 < argc) o.mode = argv[++i];
        else if (a == "--trap") o.trap = true;
        else if (a == "--allow" && i + 1 < argc) o.allow.push_back(argv[++i]);
        else if (a == "--no-landlock") o.landlock = false;
        else if (a == "--wrapper" && i + 1 < argc) o.wrapper.push_back(argv[++i]);
        else if (a == "--") {
            for (++i; i < argc; ++i) program.push_back(argv[i]);
        } else {
            std::fprintf(stderr,
                         "usage: wb-sandbox-run [--backend emu|gpu] [--mode auto|bwrap|none] [--trap] [--allow "
                         "SYSCALL]... [--wrapper WORD]... -- PROGRAM [ARGS...]\n");
            return 2;
        }
    }
    if (program.empty()) {
        std::fprintf(stderr, "wb-sandbox-run: no program given\n");
        return 2;
    }
    for (const char* k : {"PATH", "LD_LIBRARY_PATH", "CUDA_VISIBLE_DEVICES", "HOME", "LANG"})
        if (const char* v = std::getenv(k)) o.env.push_back(std::string(k) + "=" + v);
    auto s = wb::sandbox::start(o, program, {}, STDOUT_FILENO);
    if (!s.error.empty()) {
        std::fprintf(stderr, "wb-sandbox-run: %s\n", s.error.c_str());
        return 2;
    }
    int status = 0;
    ::waitpid(s.pid, &status, 0);
    std::fprintf(stderr, "wb-sandbox-run: namespaces %s; seccomp %s; filesystem %s; ", s.layers.namespaces.c_str(),
                 s.layers.seccomp.c_str(), s.layers.filesystem.c_str());
    if (WIFSIGNALED(status)) std::fprintf(stderr, "killed by signal %d\n", WTERMSIG(status));
    else std::fprintf(stderr, "exit status %d\n", WEXITSTATUS(status));
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
