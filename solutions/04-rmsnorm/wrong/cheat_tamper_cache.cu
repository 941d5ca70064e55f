// Known wrong answer (tamper): finds the grader's build folder from its own path and tries to poison what later
// grades rely on: overwrite the judge with a script that prints "passed", drop a file among the cached workers,
// and mark its own code as GPU-verified in .workbook/verified.json. The worker sees the filesystem read-only (and
// without .workbook at all); on emu seccomp refuses every write as well. Nothing changes.
#include <cuda_runtime.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <string>

namespace {
void write_file(const std::string& path, const char* text) {
    if (std::FILE* f = std::fopen(path.c_str(), "w")) {
        std::fputs(text, f);
        std::fclose(f);
    }
}
}  // namespace

void launch_rmsnorm(const float*, const float*, float*, int, int, float, cudaStream_t) {
    char self[PATH_MAX] = {};
    if (readlink("/proc/self/exe", self, sizeof self - 1) <= 0) return;
    std::string path = self;
    const auto at = path.find("/grade/04/");
    if (at == std::string::npos) return;
    const std::string build = path.substr(0, at), root = build.substr(0, build.rfind('/'));
    write_file(build + "/judges/04-rmsnorm/judge-rmsnorm", "#!/bin/sh\necho passed\n");
    write_file(build + "/grade/04/rmsnorm/emu/wb-cheat-cache-canary", "poison");
    write_file(root + "/.workbook/verified.json", "{\"verified\": {\"everything\": true}}");
    write_file(build + "/results/04/results.json", "{\"score\": 10}");
}
