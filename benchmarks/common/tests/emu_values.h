// What the emulator tests of every lesson's reference kernels (benchmarks/<lesson>/tests/reference_kernels_emu.cu)
// share: element types to and from float, each type's tolerance (that of the benchmark's own check), and the one
// error convention of a failed CUDA call (the test cannot go on: it prints where and exits 1).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <type_traits>

namespace bench {

inline float widen(float v) { return v; }
inline float widen(__nv_bfloat16 v) { return __bfloat162float(v); }
inline float widen(__half v) { return __half2float(v); }

// float -> T, rounded to nearest even.
template <typename T>
T narrow(float v) {
    if constexpr (std::is_same<T, float>::value) return v;
    else if constexpr (std::is_same<T, __half>::value) return __float2half_rn(v);
    else return __float2bfloat16_rn(v);
}

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
