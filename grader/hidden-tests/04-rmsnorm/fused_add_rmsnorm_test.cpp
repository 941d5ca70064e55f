// Hidden tests of the fused residual add: residual <- bf16(input + residual) written back, and the output normalizes
// that rounded residual.
#include <limits>

#include "entry_points.hpp"
#include "remote/call.hpp"
#include "common/runners.hpp"

namespace {

void run(int M, int N, std::string probe, wb04::FusedFill fill = wb04::normal_fused_inputs(), float eps = 1e-5f) {
    wb04::FusedCase c;
    c.M = M;
    c.N = N;
    c.eps = eps;
    c.probe = std::move(probe);
    c.fill = std::move(fill);
    wb04::run_fused_case(
        "launch_fused_add_rmsnorm",
        [](const void* in, void* res, const void* w, void* out, int m, int n, float e) {
            WB_CALL(launch_fused_add_rmsnorm, static_cast<const __nv_bfloat16*>(in), static_cast<__nv_bfloat16*>(res),
                    static_cast<const __nv_bfloat16*>(w), static_cast<__nv_bfloat16*>(out), m, n, e, cudaStream_t{});
        },
        c);
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace

WB_TEST("fused_add_rmsnorm: 7 rows of 768", "[fused_add_rmsnorm][normal]") {
    run(7, 768, "random input and residual of similar size: both the residual and the output are checked");
}
WB_TEST("fused_add_rmsnorm: 83 rows of 4096", "[fused_add_rmsnorm][normal]") {
    run(83, 4096, "a common hidden size, many blocks");
}
WB_TEST("fused_add_rmsnorm: 7 rows of 5120", "[fused_add_rmsnorm][normal]") {
    run(7, 5120, "a hidden size that is a multiple of 256 but not a power of two");
}
WB_TEST("fused_add_rmsnorm: residual holds the rounded sum", "[fused_add_rmsnorm][edge]") {
    run(4, 1024, "after the launch the residual buffer must hold bf16(input + residual), element by element",
        wb04::normal_fused_inputs(1.0, 3.0));
}
WB_TEST("fused_add_rmsnorm: output normalizes the rounded residual", "[fused_add_rmsnorm][edge]") {
    run(4, 1024,
        "a residual about 1/512 of the input: most of it is lost when the sum is rounded to bf16, so normalizing the "
        "exact fp32 sum gives visibly different outputs",
        wb04::normal_fused_inputs(1.0, 1.0 / 512));
}
WB_TEST("fused_add_rmsnorm: zero input: output is the normalized residual", "[fused_add_rmsnorm][edge]") {
    run(4, 768, "input all zero: the residual is unchanged and the output normalizes it",
        wb04::normal_fused_inputs(0.0, 1.0));
}
WB_TEST("fused_add_rmsnorm: zero residual: output is the normalized input", "[fused_add_rmsnorm][edge]") {
    run(4, 768, "residual all zero: the residual becomes the input and the output normalizes it",
        wb04::normal_fused_inputs(1.0, 0.0));
}
WB_TEST("fused_add_rmsnorm: input and residual cancel (eps)", "[fused_add_rmsnorm][edge]") {
    run(5, 768, "rows where residual = -input: the sum is exactly 0, and so must be the output",
        wb04::fused_with_zero_sum_rows(wb04::normal_fused_inputs(), {1, 4}));
}
WB_TEST("fused_add_rmsnorm: tiny magnitudes where eps dominates", "[fused_add_rmsnorm][edge]") {
    run(4, 1024, "input and residual around 1e-4 with eps 1e-5", wb04::normal_fused_inputs(1e-4, 1e-4));
}
WB_TEST("fused_add_rmsnorm: eps comes from the caller", "[fused_add_rmsnorm][edge]") {
    run(4, 1000, "eps = 0.1 on sums of magnitude 1: where eps enters the formula shows in every row",
        wb04::normal_fused_inputs(), 0.1f);
}
WB_TEST("fused_add_rmsnorm: eps 1e-6 as large as the mean square", "[fused_add_rmsnorm][edge]") {
    run(4, 1024, "input and residual around 1e-3 with eps = 1e-6: mean(h^2) and eps are of the same size",
        wb04::normal_fused_inputs(1e-3, 1e-3), 1e-6f);
}
WB_TEST("fused_add_rmsnorm: large magnitudes", "[fused_add_rmsnorm][edge]") {
    run(3, 2048, "input and residual around 1e4", wb04::normal_fused_inputs(1e4, 1e4));
}
WB_TEST("fused_add_rmsnorm: hidden size 1", "[fused_add_rmsnorm][edge]") { run(5, 1, "one element per row"); }
WB_TEST("fused_add_rmsnorm: hidden size 31", "[fused_add_rmsnorm][edge]") { run(3, 31, "a row shorter than a warp"); }
WB_TEST("fused_add_rmsnorm: hidden size 257", "[fused_add_rmsnorm][edge]") {
    run(3, 257, "one element more than a 256-thread block");
}
WB_TEST("fused_add_rmsnorm: odd hidden size 769", "[fused_add_rmsnorm][edge]") {
    run(7, 769, "a row length that is a multiple of neither 2, 32 nor the block size");
}
WB_TEST("fused_add_rmsnorm: odd hidden size 8199", "[fused_add_rmsnorm][edge]") { run(3, 8199, "a long odd row"); }
WB_TEST("fused_add_rmsnorm: hidden size 16384", "[fused_add_rmsnorm][edge]") {
    run(3, 16384, "the widest row of the lesson");
}
WB_TEST("fused_add_rmsnorm: a single row", "[fused_add_rmsnorm][edge]") { run(1, 4096, "M = 1"); }
WB_TEST("fused_add_rmsnorm: 1024 rows of 8", "[fused_add_rmsnorm][edge]") {
    run(1024, 8, "many short rows: every row's residual and output must land in its own place");
}
WB_TEST("fused_add_rmsnorm: NaN in one residual row does not leak", "[fused_add_rmsnorm][edge]") {
    run(5, 768, "one NaN in the residual of row 2: only row 2 may be NaN",
        wb04::fused_with_value(wb04::normal_fused_inputs(), true, 2, 10, kNaN));
}
WB_TEST("fused_add_rmsnorm: Inf in one input row does not leak", "[fused_add_rmsnorm][edge]") {
    run(5, 768, "one Inf in the input of row 4: only row 4 may be NaN",
        wb04::fused_with_value(wb04::normal_fused_inputs(), false, 4, 767, kInf));
}
WB_TEST("fused_add_rmsnorm: no rows (M = 0)", "[fused_add_rmsnorm][edge]") {
    run(0, 768, "an empty batch: nothing to add or normalise, and a grid of 0 blocks is a launch error");
}
WB_TEST("fused_add_rmsnorm: empty rows (N = 0)", "[fused_add_rmsnorm][edge]") {
    run(3, 0, "rows of no elements: nothing may be written to the residual or the output");
}
