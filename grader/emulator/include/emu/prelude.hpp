// What nvcc makes implicit in every .cu file, for the host compiler: comes first in each file the emulator builds
// (emu/rewritten.hpp includes it; `-include emu/prelude.hpp` works for files that are not rewritten).
#pragma once

// __CUDACC__ tells code it is compiled as CUDA (kernels, <<<>>>, built-ins are available).
#ifndef __CUDACC__
#define __CUDACC__ 1
#endif
// What nvcc itself defines: programs test these to know they are built by nvcc and which toolkit (the version is the
// runtime the emulator reports).
#ifndef __NVCC__
#define __NVCC__ 1
#endif
#define __CUDACC_VER_MAJOR__ 12
#define __CUDACC_VER_MINOR__ 8
#define __CUDACC_VER_BUILD__ 0
#define __CUDACC_RELAXED_CONSTEXPR__ 1
#define __CUDACC_EXTENDED_LAMBDA__ 1
// __CUDA_ARCH__ is deliberately NOT defined. In nvcc it marks the device compilation pass only; code uses
// `#ifdef __CUDA_ARCH__` to pick device-only paths (inline PTX, arch-specific intrinsics) and `#ifndef` for host-only
// paths (std::vector, printf to files, CPU references). The emulator compiles every function once, as host code, so
// the host-side branch is the one that compiles with g++; defining it would select inline PTX that cannot build here.

#include <emu/keywords.hpp>

// nvcc includes the runtime header into every .cu file without being asked; so do we.
#include <cuda_runtime.h>
