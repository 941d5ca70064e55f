// Known wrong answer (cheat): prints what a passing Catch2 run prints and exits 0. Results travel only through the
// result file with the nonce, so the printed text must count for nothing.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

void launch_rmsnorm(const float*, const float*, float*, int, int, float, cudaStream_t) {
    std::printf("===============================================================================\n"
                "All tests passed (64 assertions in 12 test cases)\n\n");
    std::printf("{\"status\": \"passed\", \"assertions\": 64}\n");
    std::fflush(stdout);
    std::exit(0);
}
