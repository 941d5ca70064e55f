// The benchmark's one error convention: a failed CUDA call is a broken run, reported with its place and the
// runtime's message, and the process exits 1 (nothing after it could be trusted).
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CUDA_CHECK(call)                                                              \
    do {                                                                              \
        const cudaError_t cuda_check_err_ = (call);                                   \
        if (cuda_check_err_ != cudaSuccess) {                                         \
            std::fprintf(stderr, "bench: %s:%d: %s: %s\n", __FILE__, __LINE__, #call, \
                         cudaGetErrorString(cuda_check_err_));                        \
            std::exit(1);                                                             \
        }                                                                             \
    } while (0)
