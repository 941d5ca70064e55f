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
// A __device__, __constant__ or __managed__ variable of the program: kernels may read and write it (emu-nvcc writes a
// call after each definition; runtime/kernel_reach.cpp). Returns true.
bool register_device_variable(const void* p, unsigned long bytes);
}  // namespace emu::detail
