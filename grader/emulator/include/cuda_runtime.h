// What a .cu file sees of CUDA: the runtime API, the vector types, the device built-ins and kernel launches.
#pragma once
// CUDA's include guard: helper headers test it to know the runtime API is there.
#define __CUDA_RUNTIME_H__
#include <emu/keywords.hpp>
#include <cuda_runtime_api.h>
#include <emu/vector_types.hpp>
#include <emu/math.hpp>
#include <emu/intrinsics.hpp>
#include <emu/simd_intrinsics.hpp>
#include <emu/texture.hpp>
#include <emu/ptx_registers.hpp>
#include <emu/launch.hpp>

#include <cstdio>   // device printf is the C library's printf
#include <cassert>  // device assert: a failure inside a kernel ends the launch with cudaErrorAssert
// nvcc's cuda_runtime.h brings in the C library's string.h, time.h and stdlib.h (crt/common_functions.h declares
// memset, memcpy, clock and malloc for device code) and <new>; programs call clock() or malloc() without including
// them (llm.c's permute.cu), and nvcc includes this header into every .cu file.
#include <new>
#include <stdlib.h>
#include <string.h>
#include <time.h>
