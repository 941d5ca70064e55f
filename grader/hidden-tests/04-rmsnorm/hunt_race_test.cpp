// Hidden tests of the bug hunt hunt_race: a per-row absmax scale through launch_absmax_scale. Every case has blocks
// of several warps, so a thread of another warp than thread 0's reads the shared scale: without a barrier before that
// read the emulator's race detector reports it in every case.
#include "entry_points.hpp"
#include "remote/call.hpp"
#include "common/hunts.hpp"

namespace {
void run(int M, int N, std::string probe, int zero_row = -1) {
    wb04::AbsmaxCase c;
    c.M = M;
    c.N = N;
    c.probe = std::move(probe);
    c.zero_row = zero_row;
    wb04::run_absmax_case(
        "launch_absmax_scale",
        [](const float* in, float* out, int m, int n) { WB_CALL(launch_absmax_scale, in, out, m, n, cudaStream_t{}); },
        c);
}
}  // namespace

WB_TEST("hunt_race: 6 rows of 1024", "[hunt_race][normal]") {
    run(6, 1024, "four elements per thread, every warp busy");
}
WB_TEST("hunt_race: 3 rows of 4096", "[hunt_race][normal]") { run(3, 4096, "a common hidden size"); }
WB_TEST("hunt_race: a row of zeros", "[hunt_race][edge]") {
    run(4, 768, "row 2 is all zeros: its scale is 0 and so is its output", 2);
}
WB_TEST("hunt_race: hidden size 300", "[hunt_race][edge]") {
    run(5, 300, "most threads hold one element, 44 hold two: the row's largest value can be in any warp");
}
