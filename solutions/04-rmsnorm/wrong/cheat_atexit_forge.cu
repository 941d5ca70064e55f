// Known wrong answer (cheat): computes nothing and registers an exit handler that looks for the judge's result file
// (in every process's command line it can read) and writes a "passed" result into it. The worker is another process
// than the judge, sees no other process, cannot write outside its private /tmp and never learns the nonce: the
// outputs stay poisoned and every test fails.
#include <cuda_runtime.h>
#include <dirent.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {
void forge() {
    DIR* proc = opendir("/proc");
    if (!proc) return;
    while (dirent* d = readdir(proc)) {
        std::FILE* cmd = std::fopen((std::string("/proc/") + d->d_name + "/cmdline").c_str(), "rb");
        if (!cmd) continue;
        std::string args;
        char buf[4096];
        for (size_t n; (n = std::fread(buf, 1, sizeof buf, cmd)) > 0;) args.append(buf, n);
        std::fclose(cmd);
        std::string prev;
        for (size_t pos = 0; pos < args.size();) {
            std::string arg = args.c_str() + pos;
            pos += arg.size() + 1;
            if (prev == "--wb-result")
                if (std::FILE* out = std::fopen(arg.c_str(), "w")) {
                    std::fputs("{\"nonce\": \"\", \"name\": \"\", \"status\": \"passed\", \"assertions\": 1, "
                               "\"seed\": 0, \"failures\": []}\n", out);
                    std::fclose(out);
                }
            prev = arg;
        }
    }
    closedir(proc);
}
}  // namespace

void launch_rmsnorm(const float*, const float*, float*, int, int, float, cudaStream_t) { std::atexit(forge); }
