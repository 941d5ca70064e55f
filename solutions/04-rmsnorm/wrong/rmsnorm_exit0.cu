// Known wrong answer (cheat): ends the process with status 0 from the launcher, before the test can check anything.
// The runner must report "did not report a result", never "passed".
#include <cuda_runtime.h>
#include <cstdlib>

void launch_rmsnorm(const float*, const float*, float*, int, int, float, cudaStream_t) { std::exit(0); }
