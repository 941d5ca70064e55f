// What the emulator tests of every lesson's reference kernels (benchmarks/<lesson>/tests/reference_kernels_emu.cu)
// share besides the element conversions (../elem.cuh): each type's tolerance (that of the benchmark's own check),
// the one error convention of a failed CUDA call (the test cannot go on: it prints where and exits 1), and the count
// of a launch's wrong elements.
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cstddef>
#include <type_traits>
#include <vector>

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

namespace bench {

// After a launch: the n elements of the output `y` against the fp64 reference, within T's tolerance, and (`fused`)
// the n elements of the residual written back against h, exactly. The number of elements wrong.
template <typename T>
int count_wrong(const T* y, const T* residual, bool fused, const std::vector<double>& ref, const std::vector<float>& h,
                std::size_t n) {
    std::vector<T> hy(n), hres(n);
    EMU_CHECK(cudaMemcpy(hy.data(), y, n * sizeof(T), cudaMemcpyDeviceToHost));
    EMU_CHECK(cudaMemcpy(hres.data(), residual, n * sizeof(T), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const double err = std::fabs(widen(hy[i]) - ref[i]) / (1e-5 + rtol<T>() * std::fabs(ref[i]));
        if (!(err <= 1.0)) ++bad;
        if (fused && !(widen(hres[i]) == h[i])) ++bad;
    }
    return bad;
}

}  // namespace bench
