// The fp64 check of a LayerNorm kernel's output, on the device. Host interface.
#pragma once

#include "../../common/verdict.h"
#include "suite.h"

namespace bench {

// Compares y with the fp64 LayerNorm of h (h = x, or for the fused add h = T(x + residual_before), which
// residual_after must equal exactly), mean and variance in fp64 by two passes. residual_* are null for the plain
// norm. With `mean`/`rstd` non-null (kernels that write their statistics), those are checked too, within 1e-4
// relative.
CheckResult check_output(Op op, Dtype dtype, const void* x, const void* residual_before, const void* residual_after,
                         const void* w, const void* b, const void* y, const float* mean, const float* rstd, int M,
                         int N);

}  // namespace bench
