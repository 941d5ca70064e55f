// Known wrong answer (hostile input): floods stdout with 64 MiB of text, hoping to fill the grader's disk or memory
// or to push the real failure out of the report. The worker's output is capped (RLIMIT_FSIZE): it is stopped by
// SIGXFSZ, the judge reports that, and the report shows only the last lines.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

void launch_rmsnorm(const float*, const float*, float*, int, int, float, cudaStream_t) {
    static char line[1024];
    std::memset(line, 'A', sizeof line - 2);
    line[sizeof line - 2] = '\n';
    for (int i = 0; i < 64 * 1024; ++i) std::fputs(line, stdout);
    std::fflush(stdout);
}
