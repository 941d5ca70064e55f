// Storage of the device built-in variables. Kernels see them as const (include/emu/intrinsics.hpp); the scheduler
// writes them under other names (runtime/engine.hpp) when it switches threads, blocks and launches.
#include <emu/vector_types_compat.hpp>

extern "C" {
uint3 threadIdx = {0, 0, 0};
uint3 blockIdx = {0, 0, 0};
dim3 blockDim = dim3(1, 1, 1);
dim3 gridDim = dim3(1, 1, 1);
extern const int warpSize;
const int warpSize = 32;
}
