// Hidden tests of the bug hunt hunt_mask: rows centred on their mean through launch_center_rows, N <= 1024. The row
// lengths that are not a multiple of 32 are the ones a block of N threads ends in a partial warp for; there the
// emulator reports a shuffle whose mask names lanes that do not exist.
#include "entry_points.hpp"
#include "remote/call.hpp"
#include "common/hunts.hpp"

namespace {
void run(int M, int N, std::string probe) {
    wb04::CenterCase c;
    c.M = M;
    c.N = N;
    c.probe = std::move(probe);
    wb04::run_center_case(
        "launch_center_rows",
        [](const float* in, float* out, int m, int n) { WB_CALL(launch_center_rows, in, out, m, n, cudaStream_t{}); },
        c);
}
}  // namespace

WB_TEST("hunt_mask: 4 rows of 256", "[hunt_mask][normal]") { run(4, 256, "eight full warps per row"); }
WB_TEST("hunt_mask: 5 rows of 1000", "[hunt_mask][normal]") {
    run(5, 1000, "1000 elements: 31 full warps and one of 8 elements");
}
WB_TEST("hunt_mask: hidden size 1", "[hunt_mask][edge]") { run(3, 1, "a single element per row"); }
WB_TEST("hunt_mask: hidden size 33", "[hunt_mask][edge]") {
    run(3, 33, "one element more than a warp: the second warp holds a single element");
}
WB_TEST("hunt_mask: hidden size 1024", "[hunt_mask][edge]") { run(2, 1024, "the longest row: 32 full warps"); }
