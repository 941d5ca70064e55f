// The fp32 LayerNorm cases, shared by every exercise with the fp32 contract: layernorm (the core exercise), welford
// (which also writes the statistics) and bug_hunt (same contract, its own cases on top).
// WB05_F32_CASES(EX, RUN) defines one WB_TEST per case, named "EX: <case>"; RUN(F32Case) runs a case.
#pragma once

#include <limits>

#include "runners.hpp"

namespace wb05 {
inline F32Case f32_case(int M, int N, std::string probe, Fill fill = normal_inputs(), float eps = 1e-5f) {
    F32Case c;
    c.M = M;
    c.N = N;
    c.probe = std::move(probe);
    c.fill = std::move(fill);
    c.eps = eps;
    return c;
}
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
}  // namespace wb05

// clang-format off
#define WB05_F32_CASES(EX, RUN)                                                                                      \
  WB_TEST(EX ": 7 rows of 768", "[" EX "][normal]") {                                                                \
    RUN(wb05::f32_case(7, 768, "a typical small model width, random N(0,1) inputs, weights and biases")); }          \
  WB_TEST(EX ": 83 rows of 4096", "[" EX "][normal]") {                                                              \
    RUN(wb05::f32_case(83, 4096, "a common hidden size, several elements per thread, many blocks")); }               \
  WB_TEST(EX ": 7 rows of 5120", "[" EX "][normal]") {                                                               \
    RUN(wb05::f32_case(7, 5120, "a hidden size that is a multiple of 256 but not a power of two")); }                \
  WB_TEST(EX ": 5 rows of 1024 with a mean of 3", "[" EX "][normal]") {                                              \
    RUN(wb05::f32_case(5, 1024, "inputs 3 + N(0,1): the mean is far from 0, so it must be subtracted",               \
                       wb05::normal_inputs(1.0, 3.0))); }                                                            \
  WB_TEST(EX ": large mean and small spread (mean 100 spread 1)", "[" EX "][edge]") {                                 \
    RUN(wb05::f32_case(4, 2048, "inputs 100 + N(0,1): E[x^2] is 10^4 times the variance, so a variance taken as "    \
                       "E[x^2] - E[x]^2 loses about 4 of fp32's 7 digits", wb05::normal_inputs(1.0, 100.0))); }     \
  WB_TEST(EX ": large mean and small spread (mean 1e4 spread 1)", "[" EX "][edge]") {                                 \
    RUN(wb05::f32_case(4, 1024, "inputs 10000 + N(0,1): E[x^2] is 10^8 times the variance, beyond fp32's 24 bits; " \
                       "only a variance summed around the mean survives", wb05::normal_inputs(1.0, 1e4))); }         \
  WB_TEST(EX ": large mean and tiny spread (mean 1000 spread 0.01)", "[" EX "][edge]") {                              \
    RUN(wb05::f32_case(3, 777, "inputs 1000 + 0.01 N(0,1): a variance of 1e-4, ten times eps, under a mean square " \
                       "of 1e6", wb05::normal_inputs(0.01, 1000.0))); }                                              \
  WB_TEST(EX ": negative large mean", "[" EX "][edge]") {                                                            \
    RUN(wb05::f32_case(3, 1000, "inputs -5000 + 2 N(0,1): the same cancellation with the sign reversed",            \
                       wb05::normal_inputs(2.0, -5000.0))); }                                                        \
  WB_TEST(EX ": constant rows (variance exactly 0)", "[" EX "][edge]") {                                             \
    RUN(wb05::f32_case(5, 768, "rows 1 and 3 hold 3.0 everywhere: the variance is 0, eps alone keeps rstd finite, "  \
                       "and the output is the bias", wb05::with_constant_rows(wb05::normal_inputs(), {1, 3}, 3.0))); } \
  WB_TEST(EX ": constant rows of an inexact value", "[" EX "][edge]") {                                              \
    RUN(wb05::f32_case(4, 1000, "rows of 0.1 (not exact in binary): the fp32 mean may differ from every element by " \
                       "a rounding error, which rstd = 1/sqrt(eps) multiplies by 316",                               \
                       wb05::with_constant_rows(wb05::normal_inputs(), {0, 2}, 0.1))); }                             \
  WB_TEST(EX ": all-zero row stays finite (eps)", "[" EX "][edge]") {                                                \
    RUN(wb05::f32_case(5, 768, "a row of zeros: mean 0, variance 0, the output must be the bias, not NaN",           \
                       wb05::with_constant_rows(wb05::normal_inputs(), {2}, 0.0))); }                                \
  WB_TEST(EX ": tiny magnitudes where eps dominates", "[" EX "][edge]") {                                            \
    RUN(wb05::f32_case(4, 1024, "inputs around 1e-3 with eps 1e-5: the variance (1e-6) is below eps, so where eps " \
                       "enters the formula decides the result", wb05::normal_inputs(1e-3))); }                       \
  WB_TEST(EX ": eps comes from the caller", "[" EX "][edge]") {                                                      \
    RUN(wb05::f32_case(4, 1024, "eps = 0.25 instead of the usual 1e-5", wb05::normal_inputs(), 0.25f)); }            \
  WB_TEST(EX ": no bias (all zeros)", "[" EX "][edge]") {                                                            \
    RUN(wb05::f32_case(3, 768, "a zero bias: the output is the normalized row times the weight alone",               \
                       wb05::without_bias(wb05::normal_inputs(1.0, 0.5)))); }                                        \
  WB_TEST(EX ": hidden size 1", "[" EX "][edge]") {                                                                  \
    RUN(wb05::f32_case(5, 1, "N = 1: the mean is the element, the variance 0, the output the bias; 255 threads "     \
                       "hold no element")); }                                                                        \
  WB_TEST(EX ": hidden size 2", "[" EX "][edge]") {                                                                  \
    RUN(wb05::f32_case(5, 2, "N = 2: the biased variance is half the unbiased one")); }                              \
  WB_TEST(EX ": hidden size 31 (less than a warp)", "[" EX "][edge]") {                                              \
    RUN(wb05::f32_case(3, 31, "a row shorter than one warp")); }                                                     \
  WB_TEST(EX ": hidden size 33", "[" EX "][edge]") {                                                                 \
    RUN(wb05::f32_case(3, 33, "one element more than a warp: the second warp holds a single element")); }            \
  WB_TEST(EX ": hidden size 255", "[" EX "][edge]") {                                                                \
    RUN(wb05::f32_case(3, 255, "one element less than the block: the last thread has nothing to load")); }           \
  WB_TEST(EX ": hidden size 256 (one element per thread)", "[" EX "][edge]") {                                       \
    RUN(wb05::f32_case(3, 256, "exactly one element per thread: every thread's triple or sum covers one element",    \
                       wb05::normal_inputs(1.0, 1.0))); }                                                            \
  WB_TEST(EX ": hidden size 257", "[" EX "][edge]") {                                                                \
    RUN(wb05::f32_case(3, 257, "one element more than the block: thread 0 handles two elements, the others one",     \
                       wb05::normal_inputs(1.0, 2.0))); }                                                            \
  WB_TEST(EX ": odd hidden size 769", "[" EX "][edge]") {                                                            \
    RUN(wb05::f32_case(7, 769, "a row length that is a multiple of neither 32 nor the block size",                   \
                       wb05::normal_inputs(1.0, 1.5))); }                                                            \
  WB_TEST(EX ": hidden size 770", "[" EX "][edge]") {                                                                \
    RUN(wb05::f32_case(3, 770, "two elements more than three per thread")); }                                        \
  WB_TEST(EX ": hidden size 5124", "[" EX "][edge]") {                                                               \
    RUN(wb05::f32_case(3, 5124, "four elements past a multiple of 256", wb05::normal_inputs(1.0, 0.5))); }           \
  WB_TEST(EX ": 5 rows of 8192", "[" EX "][edge]") {                                                                 \
    RUN(wb05::f32_case(5, 8192, "a wide row: each thread handles 32 elements")); }                                   \
  WB_TEST(EX ": odd hidden size 5125", "[" EX "][edge]") {                                                           \
    RUN(wb05::f32_case(3, 5125, "a long row with a partial last chunk")); }                                          \
  WB_TEST(EX ": hidden size 16384", "[" EX "][edge]") {                                                              \
    RUN(wb05::f32_case(3, 16384, "the widest row of the lesson: 64 elements per thread")); }                         \
  WB_TEST(EX ": a single row", "[" EX "][edge]") {                                                                   \
    RUN(wb05::f32_case(1, 4096, "M = 1: a grid of one block")); }                                                    \
  WB_TEST(EX ": 4096 rows of 8", "[" EX "][edge]") {                                                                 \
    RUN(wb05::f32_case(4096, 8, "many short rows: most threads idle, and every row must land in its own place")); }  \
  WB_TEST(EX ": NaN in one row does not leak into the others", "[" EX "][edge]") {                                   \
    RUN(wb05::f32_case(5, 768, "one NaN input in row 2: only row 2 may be NaN",                                      \
                       wb05::with_value(wb05::normal_inputs(), 2, 100, wb05::kNaN))); }                              \
  WB_TEST(EX ": Inf in the last row does not leak into the others", "[" EX "][edge]") {                              \
    RUN(wb05::f32_case(5, 768, "one Inf input in the last element of the last row: only that row may be NaN",        \
                       wb05::with_value(wb05::normal_inputs(), 4, 767, wb05::kInf))); }                              \
  WB_TEST(EX ": rows of very different mean and scale are independent", "[" EX "][edge]") {                          \
    RUN(wb05::f32_case(6, 1024, "row means from -300 to 1e3 and spreads from 1e-2 to 1e2: each row has its own "     \
                       "statistics", wb05::row_scaled_inputs({0.0, 1e3, -300.0, 5.0, 0.0, 40.0},                     \
                                                             {1e-2, 1.0, 1e2, 1e-1, 1e2, 3.0}))); }                  \
  WB_TEST(EX ": no rows (M = 0)", "[" EX "][edge]") {                                                                \
    RUN(wb05::f32_case(0, 768, "an empty batch: nothing to normalise, and a grid of 0 blocks is a launch error")); } \
  WB_TEST(EX ": empty rows (N = 0)", "[" EX "][edge]") {                                                             \
    RUN(wb05::f32_case(3, 0, "rows of no elements: nothing to normalise, nothing may be written")); }
// clang-format on
