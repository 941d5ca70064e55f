// The fp32 RMSNorm cases, shared by rmsnorm (the core exercise) and rmsnorm_fast (same contract, any fast kernel).
// WB04_F32_CASES(EX, RUN) defines one WB_TEST per case, named "EX: <case>"; RUN(F32Case) runs a case.
#pragma once

#include <limits>

#include "runners.hpp"

namespace wb04 {
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
}  // namespace wb04

// clang-format off
#define WB04_F32_CASES(EX, RUN)                                                                                      \
  WB_TEST(EX ": 7 rows of 768", "[" EX "][normal]") {                                                                \
    RUN(wb04::f32_case(7, 768, "a typical small model width, random N(0,1) inputs and weights")); }                  \
  WB_TEST(EX ": 83 rows of 4096", "[" EX "][normal]") {                                                              \
    RUN(wb04::f32_case(83, 4096, "a common hidden size, several elements per thread, many blocks")); }               \
  WB_TEST(EX ": 7 rows of 5120", "[" EX "][normal]") {                                                               \
    RUN(wb04::f32_case(7, 5120, "a hidden size that is a multiple of 256 but not a power of two")); }                \
  WB_TEST(EX ": 5 rows of 8192", "[" EX "][normal]") {                                                               \
    RUN(wb04::f32_case(5, 8192, "a wide row: each thread handles 32 elements")); }                                   \
  WB_TEST(EX ": all-zero row stays finite (eps)", "[" EX "][edge]") {                                                \
    RUN(wb04::f32_case(5, 768, "rows whose sum of squares is exactly 0: the output must be 0, not NaN or Inf",       \
                       wb04::with_zero_rows(wb04::normal_inputs(), {1, 3}))); }                                      \
  WB_TEST(EX ": tiny magnitudes where eps dominates", "[" EX "][edge]") {                                            \
    RUN(wb04::f32_case(4, 1024, "inputs around 1e-4 with eps 1e-5: mean(x^2) is far below eps, so where eps enters " \
                       "the formula decides the result", wb04::normal_inputs(1e-4))); }                              \
  WB_TEST(EX ": eps comes from the caller", "[" EX "][edge]") {                                                      \
    RUN(wb04::f32_case(4, 1024, "eps = 0.25 instead of the usual 1e-5", wb04::normal_inputs(), 0.25f)); }            \
  WB_TEST(EX ": eps 1e-6 as large as the mean square", "[" EX "][edge]") {                                           \
    RUN(wb04::f32_case(4, 1000, "inputs around 1e-3 with eps = 1e-6: mean(x^2) and eps are of the same size, so " \
                       "the result depends on both", wb04::normal_inputs(1e-3), 1e-6f)); }                           \
  WB_TEST(EX ": hidden size 1", "[" EX "][edge]") {                                                                  \
    RUN(wb04::f32_case(5, 1, "one element per row: all threads but one have nothing to load")); }                    \
  WB_TEST(EX ": hidden size 31 (less than a warp)", "[" EX "][edge]") {                                              \
    RUN(wb04::f32_case(3, 31, "a row shorter than one warp")); }                                                     \
  WB_TEST(EX ": hidden size 33", "[" EX "][edge]") {                                                                 \
    RUN(wb04::f32_case(3, 33, "one element more than a warp: the second warp holds a single element")); }            \
  WB_TEST(EX ": hidden size 255", "[" EX "][edge]") {                                                                \
    RUN(wb04::f32_case(3, 255, "one element less than the block: the last thread has nothing to load")); }           \
  WB_TEST(EX ": hidden size 256 (one element per thread)", "[" EX "][edge]") {                                       \
    RUN(wb04::f32_case(3, 256, "exactly one element per thread of a 256-thread block")); }                           \
  WB_TEST(EX ": hidden size 257", "[" EX "][edge]") {                                                                \
    RUN(wb04::f32_case(3, 257, "one element more than the block: thread 0 handles two elements")); }                 \
  WB_TEST(EX ": odd hidden size 769", "[" EX "][edge]") {                                                            \
    RUN(wb04::f32_case(7, 769, "a row length that is a multiple of neither 32 nor the block size")); }               \
  WB_TEST(EX ": odd hidden size 5125", "[" EX "][edge]") {                                                           \
    RUN(wb04::f32_case(3, 5125, "a long row with a partial last chunk")); }                                          \
  WB_TEST(EX ": odd hidden size 8199", "[" EX "][edge]") {                                                           \
    RUN(wb04::f32_case(3, 8199, "a long odd row: 32 full chunks plus 7 elements")); }                                \
  WB_TEST(EX ": hidden size 16384", "[" EX "][edge]") {                                                              \
    RUN(wb04::f32_case(3, 16384, "the widest row of the lesson: 64 elements per thread")); }                         \
  WB_TEST(EX ": a single row", "[" EX "][edge]") {                                                                   \
    RUN(wb04::f32_case(1, 4096, "M = 1: a grid of one block")); }                                                    \
  WB_TEST(EX ": 4096 rows of 8", "[" EX "][edge]") {                                                                 \
    RUN(wb04::f32_case(4096, 8, "many short rows: most threads idle, and every row must land in its own place")); }  \
  WB_TEST(EX ": NaN in one row does not leak into the others", "[" EX "][edge]") {                                   \
    RUN(wb04::f32_case(5, 768, "one NaN input in row 2: only row 2 may be NaN",                                      \
                       wb04::with_value(wb04::normal_inputs(), 2, 100, wb04::kNaN))); }                              \
  WB_TEST(EX ": Inf in the last row does not leak into the others", "[" EX "][edge]") {                              \
    RUN(wb04::f32_case(5, 768, "one Inf input in the last element of the last row: only that row may be NaN",        \
                       wb04::with_value(wb04::normal_inputs(), 4, 767, wb04::kInf))); }                              \
  WB_TEST(EX ": large magnitudes (about 1e12)", "[" EX "][edge]") {                                                  \
    RUN(wb04::f32_case(3, 4096, "inputs around 1e12: squares near 1e24 must not overflow fp32",                      \
                       wb04::normal_inputs(1e12))); }                                                                \
  WB_TEST(EX ": rows of very different scale are independent", "[" EX "][edge]") {                                   \
    RUN(wb04::f32_case(6, 1024, "row scales from 1e-3 to 1e3: each row has its own inverse RMS",                     \
                       wb04::row_scaled_inputs({1e-3, 1e3, 1.0, 1e-2, 1e2, 10.0}))); }                               \
  WB_TEST(EX ": no rows (M = 0)", "[" EX "][edge]") {                                                                \
    RUN(wb04::f32_case(0, 768, "an empty batch: nothing to normalise, and a grid of 0 blocks is a launch error")); } \
  WB_TEST(EX ": empty rows (N = 0)", "[" EX "][edge]") {                                                             \
    RUN(wb04::f32_case(3, 0, "rows of no elements: nothing to normalise, nothing may be written")); }
// clang-format on
