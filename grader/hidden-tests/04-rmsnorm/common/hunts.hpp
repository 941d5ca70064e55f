// Runners of the bug hunts (hunt_race, hunt_mask, hunt_align, hunt_eps): each contract is a small neighbour of
// RMSNorm, a row statistic that one thread block computes, so the hunts' kernels print none of the other exercises'
// fills.
#pragma once

#include <functional>
#include <string>

#include "testkit/device.hpp"  // WB_TEST and the device buffers, for the tests that include this

namespace wb04 {

// hunt_race: output[r][j] = input[r][j] / max_k |input[r][k]|, and 0 for a row of zeros (a per-token absmax scale, as
// int8/fp8 quantisation computes it).
struct AbsmaxCase {
    int M = 1, N = 1;
    std::string probe;
    int zero_row = -1;  // this row is all zeros when >= 0
};
using AbsmaxLaunch = std::function<void(const float* input, float* output, int M, int N)>;
void run_absmax_case(const std::string& entry, const AbsmaxLaunch& launch, const AbsmaxCase& c);

// hunt_mask: output[r][j] = input[r][j] - mean(input[r]), rows of N <= 1024.
struct CenterCase {
    int M = 1, N = 1;
    std::string probe;
};
using CenterLaunch = std::function<void(const float* input, float* output, int M, int N)>;
void run_center_case(const std::string& entry, const CenterLaunch& launch, const CenterCase& c);

// hunt_align: sums[r] = sum_j input[r][j]; `input` may start at any float (in_offset floats past an aligned address).
struct RowSumCase {
    int M = 1, N = 1;
    int in_offset = 0;
    std::string probe;
};
using RowSumLaunch = std::function<void(const float* input, float* sums, int M, int N)>;
void run_row_sum_case(const std::string& entry, const RowSumLaunch& launch, const RowSumCase& c);

// hunt_eps: output[r][j] = input[r][j] / sqrt(sum_k input[r][k]^2 + eps), a per-row L2 normalisation. The rows are
// normal(0, scale^2) values, so scale sets how the squared length ss ~ N * scale^2 compares with eps.
struct L2Case {
    int M = 1, N = 1;
    float eps = 1e-12f;
    double scale = 1.0;
    std::string probe;
    int zero_row = -1;  // this row is all zeros when >= 0
};
using L2Launch = std::function<void(const float* input, float* output, int M, int N, float eps)>;
void run_l2_case(const std::string& entry, const L2Launch& launch, const L2Case& c);

}  // namespace wb04
