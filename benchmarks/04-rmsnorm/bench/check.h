// Inputs and the fp64 check of every kernel's output, on the device (a CPU reference over 16384 x 8192 elements
// per kernel and shape would take longer than the timing itself). Host interface.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

#include "suite.h"

namespace bench {

// Fills n elements with mean + scale * (a normal deviate), from a counter-based hash of (seed, index): fresh,
// reproducible, never zeros.
void fill_normal(Dtype dtype, void* p, size_t n, uint64_t seed, float mean, float scale);

// Sets every byte to 0xff: a NaN in fp32, bf16 and fp16, so that an element the kernel never wrote fails the check.
void poison(void* p, size_t bytes);

struct CheckResult {
    unsigned long long bad;  // elements outside the tolerance (NaN included), residual elements that differ
    double worst;            // largest |got - ref| / (atol + rtol |ref|); > 1 means wrong
};

// Compares y with the fp64 RMSNorm of x (fused add: of h = x + residual_before, rounded to the element type as the
// contract says, which residual_after must equal exactly). residual_* are null for the plain norm.
CheckResult check_output(Op op, Dtype dtype, const void* x, const void* residual_before, const void* residual_after,
                         const void* w, const void* y, int M, int N);

// The tolerance: rtol covers the two roundings of the 16-bit contract (2.5 units in the last place), or fp32
// accumulation over the row.
double rtol_for(Dtype dtype);

// The roofline: dst <- src, `bytes` (a multiple of 16) as 16-byte loads and stores from a grid-stride kernel. A
// kernel, not cudaMemcpyAsync: in a CUDA graph a device-to-device memcpy of 512 MB or more ran on the copy engine at
// 2.7 TB/s in run 1, far below what kernels reach.
void copy_kernel(void* dst, const void* src, size_t bytes, cudaStream_t stream);

}  // namespace bench
