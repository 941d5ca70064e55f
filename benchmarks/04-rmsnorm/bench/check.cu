// The fp64 reference check of RMSNorm on the device (see check.h).
#include "check.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstring>

#include "../../common/cuda_check.h"
#include "../../common/elem.cuh"

namespace bench {
namespace {

constexpr int kCheckThreads = 256;

// One block per row: the fp64 statistic, then every element against its tolerance.
template <typename T>
__global__ void check_kernel(const T* x, const T* r_before, const T* r_after, const T* w, const T* y, int N, double eps,
                             double rtol, double atol, unsigned long long* bad, unsigned* worst_bits) {
    const size_t base = size_t(blockIdx.x) * N;
    auto h_of = [&](int j) -> float {
        // Fused add: the contract's h, rounded to T exactly as the kernel must round it.
        return r_before ? widen(narrow<T>(widen(x[base + j]) + widen(r_before[base + j]))) : widen(x[base + j]);
    };
    __shared__ double partial[kCheckThreads];
    double sum = 0;
    for (int j = threadIdx.x; j < N; j += kCheckThreads) {
        const double h = h_of(j);
        sum += h * h;
    }
    partial[threadIdx.x] = sum;
    __syncthreads();
    for (int half = kCheckThreads / 2; half > 0; half /= 2) {
        if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
        __syncthreads();
    }
    const double inv_rms = 1.0 / sqrt(partial[0] / N + eps);
    unsigned long long my_bad = 0;
    float my_worst = 0.0f;
    for (int j = threadIdx.x; j < N; j += kCheckThreads) {
        const float h = h_of(j);
        const double ref = double(h) * inv_rms * double(widen(w[j]));
        const double got = widen(y[base + j]);
        const double ratio = fabs(got - ref) / (atol + rtol * fabs(ref));
        if (!(ratio <= 1.0)) ++my_bad;
        my_worst = fmaxf(my_worst, ratio == ratio ? float(fmin(ratio, 1e30)) : 1e30f);
        if (r_after && !(widen(r_after[base + j]) == h)) ++my_bad;
    }
    if (my_bad) atomicAdd(bad, my_bad);
    atomicMax(worst_bits, __float_as_uint(my_worst));  // non-negative floats order like their bit patterns
}

template <typename T>
CheckResult check_typed(const void* x, const void* rb, const void* ra, const void* w, const void* y, int M, int N,
                        double rtol) {
    unsigned long long* bad = nullptr;
    unsigned* worst = nullptr;
    CUDA_CHECK(cudaMalloc(&bad, sizeof(*bad)));
    CUDA_CHECK(cudaMalloc(&worst, sizeof(*worst)));
    CUDA_CHECK(cudaMemset(bad, 0, sizeof(*bad)));
    CUDA_CHECK(cudaMemset(worst, 0, sizeof(*worst)));
    check_kernel<T><<<M, kCheckThreads>>>(static_cast<const T*>(x), static_cast<const T*>(rb),
                                          static_cast<const T*>(ra), static_cast<const T*>(w), static_cast<const T*>(y),
                                          N, double(kEps), rtol, 1e-5, bad, worst);
    CUDA_CHECK(cudaGetLastError());
    CheckResult result{};
    unsigned worst_bits = 0;
    CUDA_CHECK(cudaMemcpy(&result.bad, bad, sizeof(*bad), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&worst_bits, worst, sizeof(worst_bits), cudaMemcpyDeviceToHost));
    float worst_f;
    std::memcpy(&worst_f, &worst_bits, sizeof(worst_f));
    result.worst = worst_f;
    CUDA_CHECK(cudaFree(bad));
    CUDA_CHECK(cudaFree(worst));
    return result;
}

}  // namespace

CheckResult check_output(Op op, Dtype dtype, const void* x, const void* rb, const void* ra, const void* w,
                         const void* y, int M, int N) {
    if (op == Op::rmsnorm) rb = ra = nullptr;
    switch (dtype) {
        case Dtype::fp32: return check_typed<float>(x, rb, ra, w, y, M, N, rtol_for(dtype));
        case Dtype::bf16: return check_typed<__nv_bfloat16>(x, rb, ra, w, y, M, N, rtol_for(dtype));
        case Dtype::fp16: return check_typed<__half>(x, rb, ra, w, y, M, N, rtol_for(dtype));
    }
    return {};
}

}  // namespace bench
