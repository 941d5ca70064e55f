// Hidden tests of the bug hunt hunt_eps: a per-row L2 normalisation through launch_l2_normalize. eps outside the root
// (rsqrt(ss) + eps) differs from the contract by about eps * sqrt(ss) relative, invisible when that product is far
// below the fp32 tolerance (the normal cases) and decisive when ss is 0 (rsqrt(0) = inf, 0 * inf = NaN) or near eps.
#include <cmath>

#include "entry_points.hpp"
#include "remote/call.hpp"
#include "common/hunts.hpp"

namespace {
void run(int M, int N, float eps, double scale, std::string probe, int zero_row = -1) {
    wb04::L2Case c;
    c.M = M;
    c.N = N;
    c.eps = eps;
    c.scale = scale;
    c.probe = std::move(probe);
    c.zero_row = zero_row;
    wb04::run_l2_case(
        "launch_l2_normalize",
        [](const float* in, float* out, int m, int n, float e) {
            WB_CALL(launch_l2_normalize, in, out, m, n, e, cudaStream_t{});
        },
        c);
}
}  // namespace

WB_TEST("hunt_eps: 6 rows of 1024", "[hunt_eps][normal]") {
    run(6, 1024, 1e-12f, 1.0, "rows of length about 32: eps = 1e-12 (torch's default) changes nothing you can see");
}
WB_TEST("hunt_eps: 4 rows of 4096 near unit length", "[hunt_eps][normal]") {
    run(4, 4096, 1e-6f, 1.0 / std::sqrt(4096.0), "rows already about unit length, as embeddings are; eps = 1e-6");
}
WB_TEST("hunt_eps: a row of zeros", "[hunt_eps][edge]") {
    run(4, 768, 1e-12f, 1.0, "row 2 is all zeros: its squared length is 0 and its output must be 0", 2);
}
WB_TEST("hunt_eps: rows of tiny values", "[hunt_eps][edge]") {
    run(5, 300, 1e-6f, std::sqrt(1e-6 / 300),
        "every row's squared length is about eps = 1e-6, so where eps goes decides the scale");
}
