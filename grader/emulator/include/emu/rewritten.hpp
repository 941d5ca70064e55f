// Included first by every file emu-rewrite produces: CUDA's keywords and runtime API as nvcc makes them implicit in
// a .cu file (emu/prelude.hpp), and what the rewritten __shared__ declarations call (emu/shared.hpp; launches are in
// emu/launch.hpp, which the prelude's cuda_runtime.h includes), and the C library functions whose memory accesses the
// checker must see (emu/checked_libc.hpp).
#pragma once
#include <emu/prelude.hpp>
#include <emu/checked_libc.hpp>
#include <emu/shared.hpp>
#include <emu/arg_read.hpp>

namespace emu::detail {
// The __device__, __constant__ and __managed__ variables of the program lie in sections of their own (emu-nvcc gives
// each a section attribute and calls this at the end of every file with the linker's bounds of each section, null
// where none): kernels may read and write them (runtime/kernel_reach.cpp). Returns true.
bool register_device_section(const char* start, const char* stop);
// One instance of a template's device variable (g++ gives instances no section): emu-nvcc calls it from the
// variable's initializer.
bool register_device_variable(const void* p, unsigned long bytes);
}  // namespace emu::detail
