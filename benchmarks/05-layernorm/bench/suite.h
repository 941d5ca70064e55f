// What `make bench-05` measures: lesson 05's kernels (the student's, the solutions', the reference ones of ../kernels,
// the device-to-device copy), each behind one type-erased launcher. Host code. The element types, inputs and the
// copy are every lesson's (../../common/device_data.h), as are the timing and the report.
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <string>
#include <vector>

#include "../../common/device_data.h"

namespace bench {

constexpr float kEps = 1e-5f;

enum class Op { layernorm, fused_add };

const char* op_name(Op op);

// Device buffers of one launch: M x N input, residual (fused add only), output, N weights and biases, and M floats of
// mean and rstd for the kernels that also write their statistics (welford). Contiguous rows.
struct Args {
    const void* x;
    void* residual;
    const void* w;
    const void* b;
    void* y;
    float* mean;
    float* rstd;
    int M, N;
};

// Launches on `stream`; false (and nothing launched) where the kernel cannot run this shape.
using Launch = std::function<bool(const Args&, cudaStream_t)>;

struct Kernel {
    std::string name;    // e.g. "layernorm_fast", "reference", "copy"
    std::string source;  // "student", "solution", "reference", "tune", "copy"
    std::string shape;   // launch shape, for the reference and tuning rows
    Op op;
    Dtype dtype;
    Launch launch;
    bool writes_stats = false;  // also writes M means and M rstds (counted in its bytes)
};

// Every kernel that is linked in for one op and element type (student and solution entry points are weak symbols,
// present only when their file compiled); `tune` adds every launch shape of the reference kernel.
std::vector<Kernel> kernels_for(Op op, Dtype dtype, int M, int N, bool tune);

}  // namespace bench
