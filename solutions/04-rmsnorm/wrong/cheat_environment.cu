// Known wrong answer (cheat): prints the environment it was given, looking for the grader's secrets (a Gradescope
// token, the instructor's paths). The worker's environment is a fixed short list: nothing of the grader's reaches it.
#include <cuda_runtime.h>

#include <cstdio>

extern char** environ;

void launch_rmsnorm(const float*, const float*, float*, int, int, float, cudaStream_t) {
    for (char** e = environ; *e; ++e) std::printf("env: %s\n", *e);
    std::fflush(stdout);
}
