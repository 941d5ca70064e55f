// One runner per contract: build the inputs of a case, poison the outputs, launch through the exercise's entry point,
// check every output element against the fp64 reference, and check that nothing else was written.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "testkit/device.hpp"
#include "testkit/half_bits.hpp"
#include "inputs.hpp"

namespace wb04 {

// The shared hidden-test toolkit (grader/hidden-tests/testkit/), by its names.
using namespace wb::testkit;

// ---- fp32: rmsnorm, rmsnorm_fast ----------------------------------------------------------------------------------
struct F32Case {
    int M = 1, N = 1;
    float eps = 1e-5f;
    std::string probe;
    Fill fill = normal_inputs();
};
using F32Launch = std::function<void(const float* input, const float* weight, float* output, int M, int N, float eps)>;
void run_f32_case(const std::string& entry, const F32Launch& launch, const F32Case& c);

// ---- bf16 / fp16: rmsnorm_half (contiguous), rmsnorm_vec (strides, offsets, in place) --------------------------
struct HalfCase {
    Half type = Half::bf16;
    int M = 1, N = 1;
    float eps = 1e-5f;
    long long in_stride = 0, out_stride = 0;          // elements; 0 means N
    int in_offset = 0, out_offset = 0, w_offset = 0;  // elements added to a 256-byte aligned pointer
    bool in_place = false;                            // output == input (same stride, input's offset)
    std::string probe;
    Fill fill = normal_inputs();
};
using HalfLaunch = std::function<void(const void* input, long long input_stride, const void* weight, void* output,
                                      long long output_stride, int M, int N, float eps)>;
void run_half_case(const std::string& entry, const HalfLaunch& launch, const HalfCase& c);

// ---- fused_add_rmsnorm -------------------------------------------------------------------------------------------
struct FusedCase {
    Half type = Half::bf16;
    int M = 1, N = 1;
    float eps = 1e-5f;
    std::string probe;
    FusedFill fill = normal_fused_inputs();
};
using FusedLaunch =
    std::function<void(const void* input, void* residual, const void* weight, void* output, int M, int N, float eps)>;
void run_fused_case(const std::string& entry, const FusedLaunch& launch, const FusedCase& c);

// ---- block_reduce ------------------------------------------------------------------------------------------------
struct ReduceCase {
    int M = 1, N = 1, block = 256;  // a block size outside the supported list must launch nothing
    bool integers = true;  // exact sums of 1..8 (see reference.hpp); false: fractional N(0,1) values, Higham's bound
    std::string probe;
};
// The block sizes launch_block_sum supports: 32, 64, 128, 256, 512, 1024.
inline bool is_supported_block_size(int b) { return b >= 32 && b <= 1024 && (b & (b - 1)) == 0; }
using ReduceLaunch = std::function<void(const float* input, float* totals, int M, int N, int block_size)>;
void run_reduce_case(const std::string& entry, const ReduceLaunch& launch, const ReduceCase& c);

}  // namespace wb04
