// Force-included (-include emu/prelude.hpp) before every .cu file the emulator builds: CUDA's keywords as the host
// compiler understands them. Everything runs on the host, so the space qualifiers say nothing to g++.
#pragma once

// __CUDACC__ tells code it is compiled as CUDA (kernels, <<<>>>, built-ins are available).
#ifndef __CUDACC__
#define __CUDACC__ 1
#endif
// __CUDA_ARCH__ is deliberately NOT defined. In nvcc it marks the device compilation pass only; code uses
// `#ifdef __CUDA_ARCH__` to pick device-only paths (inline PTX, arch-specific intrinsics) and `#ifndef` for host-only
// paths (std::vector, printf to files, CPU references). The emulator compiles every function once, as host code, so
// the host-side branch is the one that compiles with g++; defining it would select inline PTX that cannot build here.

// libstdc++'s <memory> spells an attribute __noinline__; include it before that name becomes a macro.
#include <memory>

#define __global__
#define __device__
#define __host__
// nvcc's __forceinline__ also implies inline linkage; always_inline is left out because g++ refuses to build a call
// it cannot inline, which would turn a hint into a compile error that nvcc does not give.
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)
#define __align__(n) alignas(n)
#define __constant__
#define __managed__
#define __grid_constant__
#define __device_builtin__
// g++ knows __restrict__ already.

// nvcc includes the runtime header into every .cu file without being asked; so do we.
#include <cuda_runtime.h>
