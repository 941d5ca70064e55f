// What the emulator tests of every lesson's reference kernels (benchmarks/<lesson>/tests/reference_kernels_emu.cu)
// share besides the element conversions (../elem.cuh): each type's tolerance (that of the benchmark's own check),
// and the one error convention of a failed CUDA call (the test cannot go on: it prints where and exits 1).
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <type_traits>

#include "../elem.cuh"

namespace bench {

// One rounding of T (2.5 units in the last place, as the benchmark's check), or fp32 arithmetic over the row.
template <typename T>
double rtol() {
    return sizeof(T) == 4 ? 1e-4 : std::is_same<T, __half>::value ? 2.5 * 0.00048828125 : 2.5 * 0.00390625;
}

template <typename T>
const char* type_name() {
    return sizeof(T) == 4 ? "fp32" : std::is_same<T, __half>::value ? "fp16" : "bf16";
}

}  // namespace bench

#define EMU_CHECK(call)                                                                        \
    do {                                                                                       \
        const cudaError_t e_ = (call);                                                         \
        if (e_ != cudaSuccess) {                                                               \
            std::printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            std::exit(1);                                                                      \
        }                                                                                      \
    } while (0)
