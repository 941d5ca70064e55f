// Kernel time as the benchmark measures it: K launches captured in one CUDA graph (so that the host's launch cost
// stays out, for the C++ kernels and the Python peers alike), each launch on the next of several input sets whose
// total size exceeds the L2 cache several times (so that no launch reads what the previous one left in L2);
// warm-up replays, then the median over timed replays, divided by K. Host interface.
#pragma once

#include <cuda_runtime.h>

#include <functional>

namespace bench {

// Median microseconds of one launch(i, stream) (i = 0..launches-1, the caller maps i to an input set; it must
// launch on `stream`, which is being captured), or a negative value when a launch returned false (the kernel cannot run this shape).
double median_launch_us(const std::function<bool(int, cudaStream_t)>& launch, int launches, int replays);

}  // namespace bench
