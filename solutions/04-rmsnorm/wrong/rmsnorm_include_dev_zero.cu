// Known wrong answer (hostile input): includes /dev/zero, an endless file. The compiler's buffer for it grows by
// hundreds of megabytes a second (4 GB in 7 s, measured) until the machine runs out of memory, long before the
// compile's 300 s limit: every grade on that machine, a class's included, would be killed with it. Each process of
// the compile has 4 GiB of memory and 120 s of CPU time: it stops at once, with a sentence that names the limits.
#include <cuda_runtime.h>

#include "/dev/zero"

void launch_rmsnorm(const float*, const float*, float*, int, int, float, cudaStream_t) {}
