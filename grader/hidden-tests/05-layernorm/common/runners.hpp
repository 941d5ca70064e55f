// One runner per contract: build the inputs of a case, poison the outputs, launch through the exercise's entry point,
// check every output element against the fp64 reference, and check that nothing else was written and no input
// changed.
#pragma once

#include <functional>
#include <string>

#include "testkit/device.hpp"
#include "testkit/half_bits.hpp"
#include "inputs.hpp"

namespace wb05 {

using wb::testkit::Half;

// ---- fp32: layernorm, bug_hunt, welford (which also writes each row's mean and rstd) --------------------------
struct F32Case {
    int M = 1, N = 1;
    float eps = 1e-5f;
    std::string probe;
    Fill fill = normal_inputs();
};
// mean and rstd are buffers of M floats when the case checks the statistics, else null.
using F32Launch = std::function<void(const float* input, const float* weight, const float* bias, float* output,
                                     float* mean, float* rstd, int M, int N, float eps)>;
void run_f32_case(const std::string& entry, const F32Launch& launch, const F32Case& c, bool with_stats);

// ---- bf16 / fp16: layernorm_half, layernorm_fast (pointers at any 2-byte alignment) ---------------------------
struct HalfCase {
    Half type = Half::bf16;
    int M = 1, N = 1;
    float eps = 1e-5f;
    int in_offset = 0, out_offset = 0, w_offset = 0, b_offset = 0;  // elements past a 256-byte aligned address
    std::string probe;
    Fill fill = normal_inputs();
};
using HalfLaunch =
    std::function<void(const void* input, const void* weight, const void* bias, void* output, int M, int N, float eps)>;
void run_half_case(const std::string& entry, const HalfLaunch& launch, const HalfCase& c);

// ---- fused_add_layernorm (bf16) --------------------------------------------------------------------------------
using FusedLaunch = std::function<void(const void* input, void* residual, const void* weight, const void* bias,
                                       void* output, int M, int N, float eps)>;
void run_fused_case(const std::string& entry, const FusedLaunch& launch, const HalfCase& c);

}  // namespace wb05
