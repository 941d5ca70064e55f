// The fp64 reference check of LayerNorm on the device (see check.h): a CPU reference over 16384 x 8192 elements per
// kernel and shape would take longer than the timing itself.
#include "check.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>

#include "../../common/cuda_check.h"
#include "../../common/elem.cuh"
#include "../../common/verdict.cuh"

namespace bench {
namespace {

constexpr int kCheckThreads = 256;

// Sum over the block of kCheckThreads threads, in fp64; every thread gets it.
__device__ double block_sum(double v, double* partial) {
    partial[threadIdx.x] = v;
    __syncthreads();
    for (int half = kCheckThreads / 2; half > 0; half /= 2) {
        if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
        __syncthreads();
    }
    const double total = partial[0];
    __syncthreads();  // the next call overwrites partial[]
    return total;
}

// One block per row: the fp64 statistics, then every element against its tolerance.
template <typename T>
__global__ void check_kernel(const T* x, const T* r_before, const T* r_after, const T* w, const T* b, const T* y,
                             const float* mean_out, const float* rstd_out, int N, double eps, double rtol, double atol,
                             CheckCounters counters) {
    const size_t base = size_t(blockIdx.x) * N;
    auto h_of = [&](int j) -> float {
        // Fused add: the contract's h, rounded to T exactly as the kernel must round it.
        return r_before ? widen(narrow<T>(widen(x[base + j]) + widen(r_before[base + j]))) : widen(x[base + j]);
    };
    __shared__ double partial[kCheckThreads];
    double sum = 0;
    for (int j = threadIdx.x; j < N; j += kCheckThreads) sum += h_of(j);
    const double mean = block_sum(sum, partial) / N;
    double sq = 0;
    for (int j = threadIdx.x; j < N; j += kCheckThreads) sq += (h_of(j) - mean) * (h_of(j) - mean);
    const double rstd = 1.0 / sqrt(block_sum(sq, partial) / N + eps);
    unsigned long long my_bad = 0;
    float my_worst = 0.0f;
    for (int j = threadIdx.x; j < N; j += kCheckThreads) {
        const float h = h_of(j);
        const double ref = (double(h) - mean) * rstd * double(widen(w[j])) + double(widen(b[j]));
        const double got = widen(y[base + j]);
        const double ratio = fabs(got - ref) / (atol + rtol * fabs(ref));
        if (!(ratio <= 1.0)) ++my_bad;
        my_worst = fmaxf(my_worst, ratio == ratio ? float(fmin(ratio, 1e30)) : 1e30f);
        if (r_after && !(widen(r_after[base + j]) == h)) ++my_bad;
    }
    if (threadIdx.x == 0 && mean_out) {
        // The statistics a kernel writes: fp32 values of fp64 quantities, 1e-4 relative (mean: of the row's scale).
        if (!(fabs(mean_out[blockIdx.x] - mean) <= 1e-4 * (1.0 / rstd + fabs(mean)))) ++my_bad;
        if (!(fabs(rstd_out[blockIdx.x] - rstd) <= 1e-4 * rstd)) ++my_bad;
    }
    add_to_verdict(counters, my_bad, my_worst);
}

template <typename T>
CheckResult check_typed(const void* x, const void* rb, const void* ra, const void* w, const void* b, const void* y,
                        const float* mean, const float* rstd, int M, int N, double rtol) {
    const CheckCounters counters = new_check_counters();
    check_kernel<T><<<M, kCheckThreads>>>(static_cast<const T*>(x), static_cast<const T*>(rb),
                                          static_cast<const T*>(ra), static_cast<const T*>(w), static_cast<const T*>(b),
                                          static_cast<const T*>(y), mean, rstd, N, double(kEps), rtol, 1e-5, counters);
    CUDA_CHECK(cudaGetLastError());
    return take_check_result(counters);
}

}  // namespace

CheckResult check_output(Op op, Dtype dtype, const void* x, const void* rb, const void* ra, const void* w,
                         const void* b, const void* y, const float* mean, const float* rstd, int M, int N) {
    if (op == Op::layernorm) rb = ra = nullptr;
    switch (dtype) {
        case Dtype::fp32: return check_typed<float>(x, rb, ra, w, b, y, mean, rstd, M, N, rtol_for(dtype));
        case Dtype::bf16: return check_typed<__nv_bfloat16>(x, rb, ra, w, b, y, mean, rstd, M, N, rtol_for(dtype));
        case Dtype::fp16: return check_typed<__half>(x, rb, ra, w, b, y, mean, rstd, M, N, rtol_for(dtype));
    }
    return {};
}

}  // namespace bench
