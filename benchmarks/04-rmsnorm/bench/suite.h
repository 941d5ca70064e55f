// What `make bench-04` measures: the kernels (the student's, the solutions', the reference ones, the
// device-to-device copy), each behind one type-erased launcher. Host code.
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <string>
#include <vector>

#include "../../common/device_data.h"

namespace bench {

constexpr float kEps = 1e-6f;

enum class Op { rmsnorm, fused_add };

const char* op_name(Op op);

// Device buffers of one launch: M x N input, residual (fused add only), output, and N weights. Contiguous rows.
struct Args {
    const void* x;
    void* residual;
    const void* w;
    void* y;
    int M, N;
};

// Launches on `stream`; false (and nothing launched) where the kernel cannot run this shape.
using Launch = std::function<bool(const Args&, cudaStream_t)>;

struct Kernel {
    std::string name;    // e.g. "rmsnorm_fast", "reference", "copy"
    std::string source;  // "student", "solution", "reference", "tune", "copy"
    std::string shape;   // launch shape, for the reference and tuning rows
    Op op;
    Dtype dtype;
    Launch launch;
};

// Every kernel that is linked in, for one op and element type: student and solution entry points are weak symbols,
// present only when their file compiled (bench.sh builds what it can). `tune` adds every launch shape the reference
// kernels have for rows of N elements (M decides which of them the reference's rule picks).
std::vector<Kernel> kernels_for(Op op, Dtype dtype, int M, int N, bool tune);

}  // namespace bench
