// Hidden tests of the Welford exercise: the fp32 LayerNorm cases, with every row's mean and rstd checked as well
// (launch_layernorm_welford writes them). Row lengths that give the threads of a block different counts are what
// expose a merge with the wrong weights: with equal counts, a plain average of the means happens to be right.
#include "entry_points.hpp"
#include "remote/call.hpp"
#include "common/f32_cases.hpp"

namespace {
void run(const wb05::F32Case& c) {
    wb05::run_f32_case(
        "launch_layernorm_welford",
        [](const float* in, const float* w, const float* b, float* out, float* mean, float* rstd, int M, int N,
           float eps) { WB_CALL(launch_layernorm_welford, in, w, b, out, mean, rstd, M, N, eps, cudaStream_t{}); },
        c, true);
}
}  // namespace

WB05_F32_CASES("welford", run)

WB_TEST("welford: hidden size 300 with a mean of 10", "[welford][edge]") {
    run(wb05::f32_case(4, 300, "44 threads hold two elements and 212 one: the merges must weigh the means by count",
                       wb05::normal_inputs(1.0, 10.0)));
}
WB_TEST("welford: hidden size 100 with a mean of -7 (threads without elements)", "[welford][edge]") {
    run(wb05::f32_case(4, 100, "156 of 256 threads hold no element: empty triples must drop out of every merge",
                       wb05::normal_inputs(2.0, -7.0)));
}
WB_TEST("welford: a trend along the row", "[welford][edge]") {
    // Each thread's elements differ in mean (column t has mean t/100): merged means differ, so M2's correction term
    // delta^2 * n_a * n_b / n is large and a merge that drops or misweighs it is visible.
    run(wb05::f32_case(3, 1500, "x = column / 100 + N(0,1): every thread's part of the row has its own mean",
                       [](wb::testkit::Rng& rng, int M, int N, wb05::Tensors& t) {
                           wb05::normal_inputs()(rng, M, N, t);
                           for (int r = 0; r < M; ++r)
                               for (int col = 0; col < N; ++col)
                                   t.x[static_cast<std::size_t>(r) * N + col] += col / 100.0;
                       }));
}
