// Hidden tests of the bug hunt hunt_align: row sums through launch_row_sums. A row starts 4 * r * N bytes past
// `input`, so with N not a multiple of 4 (or an input that starts off a 16-byte boundary) some rows start between two
// 16-byte boundaries; a float4 load there is the misaligned access the emulator reports.
#include "entry_points.hpp"
#include "remote/call.hpp"
#include "common/hunts.hpp"

namespace {
void run(int M, int N, int in_offset, std::string probe) {
    wb04::RowSumCase c;
    c.M = M;
    c.N = N;
    c.in_offset = in_offset;
    c.probe = std::move(probe);
    wb04::run_row_sum_case(
        "launch_row_sums",
        [](const float* in, float* sums, int m, int n) { WB_CALL(launch_row_sums, in, sums, m, n, cudaStream_t{}); },
        c);
}
}  // namespace

WB_TEST("hunt_align: 4 rows of 4096", "[hunt_align][normal]") { run(4, 4096, 0, "every row starts 16-byte aligned"); }
WB_TEST("hunt_align: 4 rows of 1025", "[hunt_align][normal]") {
    run(4, 1025, 0, "N = 4k + 1: row 1 starts 4 bytes past a 16-byte boundary, row 2 8 bytes, row 3 12 bytes");
}
WB_TEST("hunt_align: a view one float in", "[hunt_align][edge]") {
    run(3, 1024, 1, "the input is a view starting at buf + 1: no row starts on a 16-byte boundary");
}
WB_TEST("hunt_align: rows shorter than the prefix", "[hunt_align][edge]") {
    run(5, 2, 1, "two floats per row, starting at odd floats: a row can end before the first 16-byte boundary");
}
