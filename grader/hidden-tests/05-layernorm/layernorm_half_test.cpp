// Hidden tests of the 16-bit exercise: bf16 and fp16 LayerNorm with fp32 statistics and one rounding at the store.
#include <limits>

#include "entry_points.hpp"
#include "remote/call.hpp"
#include "common/runners.hpp"

namespace {

using wb05::Half;

void run(Half t, int M, int N, std::string probe, wb05::Fill fill = wb05::normal_inputs(), float eps = 1e-5f) {
    wb05::HalfCase c;
    c.type = t;
    c.M = M;
    c.N = N;
    c.eps = eps;
    c.probe = std::move(probe);
    c.fill = std::move(fill);
    if (t == Half::bf16) {
        wb05::run_half_case(
            "launch_layernorm_bf16",
            [](const void* in, const void* w, const void* b, void* out, int m, int n, float e) {
                WB_CALL(launch_layernorm_bf16, static_cast<const __nv_bfloat16*>(in),
                        static_cast<const __nv_bfloat16*>(w), static_cast<const __nv_bfloat16*>(b),
                        static_cast<__nv_bfloat16*>(out), m, n, e, cudaStream_t{});
            },
            c);
    } else {
        wb05::run_half_case(
            "launch_layernorm_fp16",
            [](const void* in, const void* w, const void* b, void* out, int m, int n, float e) {
                WB_CALL(launch_layernorm_fp16, static_cast<const __half*>(in), static_cast<const __half*>(w),
                        static_cast<const __half*>(b), static_cast<__half*>(out), m, n, e, cudaStream_t{});
            },
            c);
    }
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace

// clang-format off
WB_TEST("layernorm_half: bf16 7 rows of 768", "[layernorm_half][normal]") { run(Half::bf16, 7, 768, "bf16, a typical small width"); }
WB_TEST("layernorm_half: bf16 83 rows of 4096", "[layernorm_half][normal]") { run(Half::bf16, 83, 4096, "bf16, a common hidden size"); }
WB_TEST("layernorm_half: fp16 7 rows of 768", "[layernorm_half][normal]") { run(Half::fp16, 7, 768, "fp16, a typical small width"); }
WB_TEST("layernorm_half: fp16 7 rows of 5120", "[layernorm_half][normal]") { run(Half::fp16, 7, 5120, "fp16, a multiple of 256 that is not a power of two"); }
WB_TEST("layernorm_half: bf16 16384 wide (a bf16 running sum would stall)", "[layernorm_half][edge]") {
  run(Half::bf16, 3, 16384, "inputs 2 + N(0,1) over 16384 columns: a sum kept in bf16 (8 bits) stops growing near 512",
      wb05::normal_inputs(1.0, 2.0));
}
WB_TEST("layernorm_half: fp16 large magnitudes (squares beyond 65504)", "[layernorm_half][edge]") {
  run(Half::fp16, 3, 2048, "fp16 inputs of spread 300: x^2 reaches 10^5, past fp16's largest value 65504",
      wb05::normal_inputs(300.0));
}
WB_TEST("layernorm_half: fp16 sum beyond 65504", "[layernorm_half][edge]") {
  run(Half::fp16, 3, 4096, "fp16 inputs of mean 40: the row sums to 160000, which fp16 cannot hold",
      wb05::normal_inputs(1.0, 40.0));
}
WB_TEST("layernorm_half: bf16 large mean", "[layernorm_half][edge]") {
  run(Half::bf16, 4, 2048, "bf16 inputs 64 + N(0,1): the mean must be subtracted in fp32", wb05::normal_inputs(1.0, 64.0));
}
WB_TEST("layernorm_half: fp16 large mean over a small spread", "[layernorm_half][edge]") {
  run(Half::fp16, 4, 2048, "fp16 inputs 1000 + 2 N(0,1): E[x^2] is 2.5e5 times the variance, so even fp32 statistics "
      "lose 5 of their 7 digits if the variance is taken as E[x^2] - E[x]^2", wb05::normal_inputs(2.0, 1000.0));
}
WB_TEST("layernorm_half: bf16 constant rows", "[layernorm_half][edge]") {
  run(Half::bf16, 4, 768, "rows 0 and 3 constant: variance 0, output = bias",
      wb05::with_constant_rows(wb05::normal_inputs(), {0, 3}, 1.5));
}
WB_TEST("layernorm_half: fp16 all-zero row", "[layernorm_half][edge]") {
  run(Half::fp16, 4, 768, "a row of zeros: the output must be the bias, not NaN",
      wb05::with_constant_rows(wb05::normal_inputs(), {1}, 0.0));
}
WB_TEST("layernorm_half: bf16 tiny magnitudes where eps dominates", "[layernorm_half][edge]") {
  run(Half::bf16, 4, 1024, "inputs around 1e-3 with eps 1e-5", wb05::normal_inputs(1e-3));
}
WB_TEST("layernorm_half: fp16 eps comes from the caller", "[layernorm_half][edge]") {
  run(Half::fp16, 4, 1000, "eps = 0.1 on rows of magnitude 1", wb05::normal_inputs(), 0.1f);
}
WB_TEST("layernorm_half: bf16 hidden size 1", "[layernorm_half][edge]") { run(Half::bf16, 5, 1, "one element per row: the output is the bias"); }
WB_TEST("layernorm_half: fp16 hidden size 31", "[layernorm_half][edge]") { run(Half::fp16, 3, 31, "a row shorter than one warp"); }
WB_TEST("layernorm_half: bf16 hidden size 257", "[layernorm_half][edge]") { run(Half::bf16, 3, 257, "one element more than the block"); }
WB_TEST("layernorm_half: fp16 odd hidden size 769", "[layernorm_half][edge]") { run(Half::fp16, 7, 769, "a multiple of neither 32 nor 256"); }
WB_TEST("layernorm_half: bf16 odd hidden size 8199", "[layernorm_half][edge]") { run(Half::bf16, 3, 8199, "a long odd row"); }
WB_TEST("layernorm_half: bf16 a single row", "[layernorm_half][edge]") { run(Half::bf16, 1, 4096, "M = 1"); }
WB_TEST("layernorm_half: fp16 4096 rows of 8", "[layernorm_half][edge]") { run(Half::fp16, 4096, 8, "many short rows"); }
WB_TEST("layernorm_half: bf16 NaN in one row does not leak", "[layernorm_half][edge]") {
  run(Half::bf16, 5, 768, "one NaN in row 2: only row 2 may be NaN", wb05::with_value(wb05::normal_inputs(), 2, 5, kNaN));
}
WB_TEST("layernorm_half: bf16 no rows (M = 0)", "[layernorm_half][edge]") { run(Half::bf16, 0, 768, "an empty batch"); }
WB_TEST("layernorm_half: fp16 empty rows (N = 0)", "[layernorm_half][edge]") { run(Half::fp16, 3, 0, "rows of no elements"); }
// clang-format on
