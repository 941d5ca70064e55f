// Storage of the device built-in variables. Kernels see them as const (include/emu/intrinsics.hpp); the scheduler
// writes them under other names (runtime/engine.hpp) when it switches threads, blocks and launches.
#include <emu/vector_types_compat.hpp>

// In a section of their own: kernels read them, and the memory checker allows a kernel's reads there and nowhere
// else in the program's static data (runtime/kernel_reach.cpp).
#define EMU_BUILTIN __attribute__((section("emu_builtins")))
extern "C" {
EMU_BUILTIN uint3 threadIdx = {0, 0, 0};
EMU_BUILTIN uint3 blockIdx = {0, 0, 0};
EMU_BUILTIN dim3 blockDim = dim3(1, 1, 1);
EMU_BUILTIN dim3 gridDim = dim3(1, 1, 1);
extern const int warpSize;
const int warpSize = 32;
}
#undef EMU_BUILTIN
