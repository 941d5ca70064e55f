// Known wrong answer (cheat): reads its own command line, finds the result file named after --wb-result and writes a
// "passed" result into it, then exits 0. It cannot know the nonce the runner sent on stdin (the harness has read it
// already), so the runner must reject this result.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

void launch_rmsnorm(const float*, const float*, float*, int, int, float, cudaStream_t) {
    std::FILE* cmd = std::fopen("/proc/self/cmdline", "rb");
    if (!cmd) std::exit(0);
    std::string args;
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, cmd)) > 0) args.append(buf, n);
    std::fclose(cmd);
    std::string name, result_path;
    for (size_t pos = 0; pos < args.size();) {
        std::string arg = args.c_str() + pos;
        pos += arg.size() + 1;
        if (name == "--wb-result") result_path = arg;
        name = arg;
    }
    if (!result_path.empty()) {
        if (std::FILE* out = std::fopen(result_path.c_str(), "w")) {
            std::fprintf(out, "{\"nonce\": \"\", \"name\": \"\", \"status\": \"passed\", \"assertions\": 1, "
                              "\"seed\": 0, \"failures\": []}\n");
            std::fclose(out);
        }
    }
    std::exit(0);
}
