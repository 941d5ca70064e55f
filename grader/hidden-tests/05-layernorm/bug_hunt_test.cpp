// Hidden tests of the bug hunt: the fp32 LayerNorm contract, whose large-mean cases are what the shipped
// E[x^2] - E[x]^2 statistics fail, plus more rows of that kind.
#include "entry_points.hpp"
#include "remote/call.hpp"
#include "common/f32_cases.hpp"

namespace {
void run(const wb05::F32Case& c) {
    wb05::run_f32_case(
        "launch_layernorm_bughunt",
        [](const float* in, const float* w, const float* b, float* out, float*, float*, int M, int N, float eps) {
            WB_CALL(launch_layernorm_bughunt, in, w, b, out, M, N, eps, cudaStream_t{});
        },
        c, false);
}
}  // namespace

WB05_F32_CASES("bug_hunt", run)

WB_TEST("bug_hunt: activations with a mean of 300 and spread 3", "[bug_hunt][edge]") {
    run(wb05::f32_case(8, 4096, "x = 300 + 3 N(0,1): a mean square 10^4 times the variance, at a real model's width",
                       wb05::normal_inputs(3.0, 300.0)));
}
WB_TEST("bug_hunt: the lesson's worked example as a row", "[bug_hunt][edge]") {
    run(wb05::f32_case(2, 4, "x = 10000, 10001, 10002, 10003 (section 2): variance 1.25, mean square 10^8",
                       [](wb::testkit::Rng& rng, int M, int N, wb05::Tensors& t) {
                           wb05::normal_inputs()(rng, M, N, t);
                           for (int r = 0; r < M; ++r)
                               for (int col = 0; col < N; ++col)
                                   t.x[static_cast<std::size_t>(r) * N + col] = 10000.0 + col;
                       }));
}
