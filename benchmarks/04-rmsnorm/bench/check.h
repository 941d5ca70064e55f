// The fp64 check of every kernel's output, on the device (a CPU reference over 16384 x 8192 elements
// per kernel and shape would take longer than the timing itself). Host interface.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

#include "../../common/device_data.h"
#include "../../common/verdict.h"
#include "suite.h"

namespace bench {

// Compares y with the fp64 RMSNorm of x (fused add: of h = x + residual_before, rounded to the element type as the
// contract says, which residual_after must equal exactly). residual_* are null for the plain norm.
CheckResult check_output(Op op, Dtype dtype, const void* x, const void* residual_before, const void* residual_after,
                         const void* w, const void* y, int M, int N);

}  // namespace bench
