// Hidden tests of the fused residual add + LayerNorm (bf16): the residual written back exactly, the output
// normalising that rounded sum.
#include <limits>

#include "entry_points.hpp"
#include "remote/call.hpp"
#include "common/runners.hpp"

namespace {

void run(int M, int N, std::string probe, wb05::Fill fill = wb05::normal_inputs(), float eps = 1e-5f) {
    wb05::HalfCase c;
    c.type = wb05::Half::bf16;
    c.M = M;
    c.N = N;
    c.eps = eps;
    c.probe = std::move(probe);
    c.fill = std::move(fill);
    wb05::run_fused_case(
        "launch_fused_add_layernorm",
        [](const void* in, void* res, const void* w, const void* b, void* out, int m, int n, float e) {
            WB_CALL(launch_fused_add_layernorm, static_cast<const __nv_bfloat16*>(in), static_cast<__nv_bfloat16*>(res),
                    static_cast<const __nv_bfloat16*>(w), static_cast<const __nv_bfloat16*>(b),
                    static_cast<__nv_bfloat16*>(out), m, n, e, cudaStream_t{});
        },
        c);
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace

// clang-format off
WB_TEST("fused_add_layernorm: 7 rows of 768", "[fused_add_layernorm][normal]") { run(7, 768, "a typical small width"); }
WB_TEST("fused_add_layernorm: 83 rows of 4096", "[fused_add_layernorm][normal]") { run(83, 4096, "a common hidden size"); }
WB_TEST("fused_add_layernorm: 7 rows of 5120", "[fused_add_layernorm][normal]") { run(7, 5120, "a multiple of 256, not a power of two"); }
WB_TEST("fused_add_layernorm: sums that round in bf16", "[fused_add_layernorm][edge]") {
  run(5, 1024, "input 8 + N(0,1) plus residual N(0,1): most sums need rounding, so normalising the fp32 sum differs "
      "from normalising the written-back one", wb05::normal_inputs(1.0, 8.0));
}
WB_TEST("fused_add_layernorm: rows whose sum is exactly zero", "[fused_add_layernorm][edge]") {
  run(5, 768, "residual = -input on rows 1 and 4: the sum is 0, its variance 0, the output the bias",
      wb05::with_zero_sum_rows(wb05::normal_inputs(), {1, 4}));
}
WB_TEST("fused_add_layernorm: tiny magnitudes where eps dominates", "[fused_add_layernorm][edge]") {
  run(4, 1024, "input around 1e-3", wb05::normal_inputs(1e-3));
}
WB_TEST("fused_add_layernorm: hidden size 1", "[fused_add_layernorm][edge]") { run(5, 1, "one element per row"); }
WB_TEST("fused_add_layernorm: hidden size 33", "[fused_add_layernorm][edge]") { run(3, 33, "the second warp holds one element"); }
WB_TEST("fused_add_layernorm: hidden size 257", "[fused_add_layernorm][edge]") { run(3, 257, "one element more than the block"); }
WB_TEST("fused_add_layernorm: odd hidden size 5125", "[fused_add_layernorm][edge]") { run(3, 5125, "a long odd row"); }
WB_TEST("fused_add_layernorm: hidden size 16384", "[fused_add_layernorm][edge]") { run(2, 16384, "the widest row"); }
WB_TEST("fused_add_layernorm: a single row", "[fused_add_layernorm][edge]") { run(1, 4096, "M = 1"); }
WB_TEST("fused_add_layernorm: 2048 rows of 8", "[fused_add_layernorm][edge]") { run(2048, 8, "many short rows"); }
WB_TEST("fused_add_layernorm: NaN in one row does not leak", "[fused_add_layernorm][edge]") {
  run(5, 768, "one NaN input in row 3: only row 3 may be NaN", wb05::with_value(wb05::normal_inputs(), 3, 700, kNaN));
}
WB_TEST("fused_add_layernorm: no rows (M = 0)", "[fused_add_layernorm][edge]") { run(0, 768, "an empty batch"); }
WB_TEST("fused_add_layernorm: empty rows (N = 0)", "[fused_add_layernorm][edge]") { run(3, 0, "rows of no elements"); }
// clang-format on
