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
// __CUDA_ARCH__ is not defined here: as with nvcc, it marks the device pass only. emu-nvcc preprocesses each file
// twice, once with -D__CUDA_ARCH__=<target> for kernels and __device__ functions and once without for host code,
// and merges the two (docs/emulator.md, "__CUDA_ARCH__").

#include <emu/keywords.hpp>

// nvcc includes the runtime header into every .cu file without being asked; so do we.
#include <cuda_runtime.h>
