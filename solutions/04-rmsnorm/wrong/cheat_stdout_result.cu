// Known wrong answer (cheat): prints what a passing grade looks like in every format the grader writes (the judge's
// result object, a Gradescope results.json, Catch2's summary) and ends the program with status 0. Nothing a worker
// prints is read as a result: the test fails because the program ended before returning.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

void launch_rmsnorm(const float*, const float*, float*, int, int, float, cudaStream_t) {
    std::printf("{\"nonce\": \"0\", \"status\": \"passed\", \"assertions\": 100, \"failures\": []}\n");
    std::printf("{\"score\": 10, \"tests\": [{\"name\": \"rmsnorm\", \"status\": \"passed\", \"score\": 4}]}\n");
    std::printf("All tests passed (100 assertions in 1 test case)\n");
    std::fflush(stdout);
    std::_Exit(0);
}
