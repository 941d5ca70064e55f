// Hidden tests of the bf16/fp16 exercise: 16-bit storage, fp32 accumulation, Llama-order rounding of the output.
#include <limits>

#include "entry_points.hpp"
#include "remote/call.hpp"
#include "common/runners.hpp"

namespace {

using wb04::Half;

void run(Half t, int M, int N, std::string probe, wb04::Fill fill = wb04::normal_inputs(), float eps = 1e-5f) {
    wb04::HalfCase c;
    c.type = t;
    c.M = M;
    c.N = N;
    c.eps = eps;
    c.probe = std::move(probe);
    c.fill = std::move(fill);
    if (t == Half::bf16)
        wb04::run_half_case(
            "launch_rmsnorm_bf16",
            [](const void* in, long long, const void* w, void* out, long long, int m, int n, float e) {
                WB_CALL(launch_rmsnorm_bf16, static_cast<const __nv_bfloat16*>(in),
                        static_cast<const __nv_bfloat16*>(w), static_cast<__nv_bfloat16*>(out), m, n, e,
                        cudaStream_t{});
            },
            c);
    else
        wb04::run_half_case(
            "launch_rmsnorm_fp16",
            [](const void* in, long long, const void* w, void* out, long long, int m, int n, float e) {
                WB_CALL(launch_rmsnorm_fp16, static_cast<const __half*>(in), static_cast<const __half*>(w),
                        static_cast<__half*>(out), m, n, e, cudaStream_t{});
            },
            c);
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace

WB_TEST("rmsnorm_half: bf16 7 rows of 768", "[rmsnorm_half][normal]") {
    run(Half::bf16, 7, 768, "bf16 rows of a typical width; the output is rounded twice, as the lesson specifies");
}
WB_TEST("rmsnorm_half: bf16 83 rows of 4096", "[rmsnorm_half][normal]") {
    run(Half::bf16, 83, 4096, "a common hidden size in bf16, many blocks");
}
WB_TEST("rmsnorm_half: fp16 7 rows of 5120", "[rmsnorm_half][normal]") {
    run(Half::fp16, 7, 5120, "fp16 rows: the same contract with a different 16-bit format");
}
WB_TEST("rmsnorm_half: fp16 83 rows of 768", "[rmsnorm_half][normal]") { run(Half::fp16, 83, 768, "fp16, many rows"); }
WB_TEST("rmsnorm_half: bf16 5 rows of 8192", "[rmsnorm_half][normal]") {
    run(Half::bf16, 5, 8192, "a wide bf16 row: the sum of squares has 8192 terms");
}
WB_TEST("rmsnorm_half: fp16 magnitudes around 300 (squares overflow fp16)", "[rmsnorm_half][edge]") {
    run(Half::fp16, 4, 1024,
        "fp16 inputs of a few hundred: x*x exceeds 65504, the largest fp16, while the output is of order 1",
        wb04::normal_inputs(300.0));
}
WB_TEST("rmsnorm_half: fp16 magnitudes around 1e-4 (squares underflow fp16)", "[rmsnorm_half][edge]") {
    run(Half::fp16, 4, 1024, "fp16 inputs near 1e-4: x*x is below the smallest fp16, and eps 1e-5 dominates the mean",
        wb04::normal_inputs(1e-4));
}
WB_TEST("rmsnorm_half: bf16 long rows where bf16 sums stagnate", "[rmsnorm_half][edge]") {
    run(Half::bf16, 3, 16384,
        "16384 positive squares near 1: a running sum in bf16 (8 significant bits) stops growing long before the end",
        wb04::offset_inputs(1.0, 0.25));
}
WB_TEST("rmsnorm_half: bf16 all-zero row stays finite (eps)", "[rmsnorm_half][edge]") {
    run(Half::bf16, 5, 768, "rows whose sum of squares is 0: the output must be 0",
        wb04::with_zero_rows(wb04::normal_inputs(), {0, 4}));
}
WB_TEST("rmsnorm_half: bf16 tiny magnitudes where eps dominates", "[rmsnorm_half][edge]") {
    run(Half::bf16, 4, 1024, "bf16 inputs around 1e-4 with eps 1e-5: where eps enters the formula decides the result",
        wb04::normal_inputs(1e-4));
}
WB_TEST("rmsnorm_half: bf16 eps comes from the caller", "[rmsnorm_half][edge]") {
    run(Half::bf16, 4, 1024, "eps = 0.25 instead of the usual 1e-5", wb04::normal_inputs(), 0.25f);
}
WB_TEST("rmsnorm_half: fp16 eps comes from the caller", "[rmsnorm_half][edge]") {
    run(Half::fp16, 4, 1000, "eps = 0.1 on rows of magnitude 1: where eps enters the formula shows in every row",
        wb04::normal_inputs(), 0.1f);
}
WB_TEST("rmsnorm_half: bf16 eps 1e-6 as large as the mean square", "[rmsnorm_half][edge]") {
    run(Half::bf16, 4, 1000, "bf16 inputs around 1e-3 with eps = 1e-6: mean(x^2) and eps are of the same size",
        wb04::normal_inputs(1e-3), 1e-6f);
}
WB_TEST("rmsnorm_half: fp16 all-zero row stays finite (eps 1e-6)", "[rmsnorm_half][edge]") {
    run(Half::fp16, 5, 768, "fp16 rows whose sum of squares is 0, with eps = 1e-6: the output must be 0",
        wb04::with_zero_rows(wb04::normal_inputs(), {1, 2}), 1e-6f);
}
WB_TEST("rmsnorm_half: bf16 hidden size 1", "[rmsnorm_half][edge]") { run(Half::bf16, 5, 1, "one element per row"); }
WB_TEST("rmsnorm_half: fp16 hidden size 33", "[rmsnorm_half][edge]") {
    run(Half::fp16, 3, 33, "one element more than a warp");
}
WB_TEST("rmsnorm_half: bf16 hidden size 257", "[rmsnorm_half][edge]") {
    run(Half::bf16, 3, 257, "one element more than a 256-thread block");
}
WB_TEST("rmsnorm_half: bf16 odd hidden size 769", "[rmsnorm_half][edge]") {
    run(Half::bf16, 7, 769, "a row length that is a multiple of neither 2, 8, 32 nor the block size");
}
WB_TEST("rmsnorm_half: fp16 odd hidden size 5125", "[rmsnorm_half][edge]") {
    run(Half::fp16, 3, 5125, "a long odd fp16 row");
}
WB_TEST("rmsnorm_half: bf16 odd hidden size 8199", "[rmsnorm_half][edge]") {
    run(Half::bf16, 3, 8199, "a long odd bf16 row");
}
WB_TEST("rmsnorm_half: fp16 a single row", "[rmsnorm_half][edge]") { run(Half::fp16, 1, 4096, "M = 1"); }
WB_TEST("rmsnorm_half: bf16 1024 rows of 8", "[rmsnorm_half][edge]") {
    run(Half::bf16, 1024, 8, "many short rows: every row must land in its own place");
}
WB_TEST("rmsnorm_half: bf16 NaN in one row does not leak into the others", "[rmsnorm_half][edge]") {
    run(Half::bf16, 5, 768, "one NaN input in row 1: only row 1 may be NaN",
        wb04::with_value(wb04::normal_inputs(), 1, 5, kNaN));
}
WB_TEST("rmsnorm_half: fp16 Inf in one row does not leak into the others", "[rmsnorm_half][edge]") {
    run(Half::fp16, 5, 768, "one Inf input in row 3: only row 3 may be NaN",
        wb04::with_value(wb04::normal_inputs(), 3, 767, kInf));
}
WB_TEST("rmsnorm_half: bf16 rows of very different scale are independent", "[rmsnorm_half][edge]") {
    run(Half::bf16, 6, 1024, "row scales from 1e-3 to 1e3: each row has its own inverse RMS",
        wb04::row_scaled_inputs({1e-3, 1e3, 1.0, 1e-2, 1e2, 10.0}));
}
WB_TEST("rmsnorm_half: bf16 no rows (M = 0)", "[rmsnorm_half][edge]") {
    run(Half::bf16, 0, 768, "an empty batch: nothing to normalise, and a grid of 0 blocks is a launch error");
}
WB_TEST("rmsnorm_half: fp16 empty rows (N = 0)", "[rmsnorm_half][edge]") {
    run(Half::fp16, 3, 0, "rows of no elements: nothing to normalise, nothing may be written");
}
