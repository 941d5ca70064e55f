// Known wrong answer (cheat): looks for the result files of the tests running beside it (the grader runs two at a
// time) under /tmp and overwrites each with a "passed" result. /tmp inside the sandbox is private and empty, writes
// outside are refused, and a forged result would lack its judge's nonce anyway.
#include <cuda_runtime.h>
#include <dirent.h>

#include <cstdio>
#include <string>

void launch_rmsnorm(const float*, const float*, float*, int, int, float, cudaStream_t) {
    DIR* tmp = opendir("/tmp");
    while (tmp != nullptr) {
        dirent* d = readdir(tmp);
        if (d == nullptr) break;
        const std::string name = d->d_name;
        if (name.rfind("workbook-test-", 0) != 0) continue;
        if (std::FILE* f = std::fopen(("/tmp/" + name + "/result.json").c_str(), "w")) {
            std::fputs("{\"status\": \"passed\", \"assertions\": 1, \"failures\": []}\n", f);
            std::fclose(f);
        }
    }
    if (tmp) closedir(tmp);
}
