// Hidden tests of the block reduction exercise: every thread of every block must end with its row's sum.
#include "entry_points.hpp"
#include "remote/call.hpp"
#include "common/runners.hpp"

namespace {

constexpr int kBlockSizes[] = {32, 64, 128, 256, 512, 1024};

void run(int M, int N, int block, std::string probe, bool integers = true) {
    wb04::ReduceCase c;
    c.M = M;
    c.N = N;
    c.block = block;
    c.integers = integers;
    c.probe = std::move(probe);
    wb04::run_reduce_case(
        "launch_block_sum",
        [](const float* in, float* totals, int m, int n, int b) {
            WB_CALL(launch_block_sum, in, totals, m, n, b, cudaStream_t{});
        },
        c);
}

}  // namespace

WB_TEST("block_reduce: 32 threads (a single warp)", "[block_reduce][normal]") {
    run(3, 8 * 32, 32, "a block of one warp: the cross-warp step has a single partial sum");
}
WB_TEST("block_reduce: 64 threads", "[block_reduce][normal]") { run(3, 8 * 64, 64, "two warps per block"); }
WB_TEST("block_reduce: 128 threads", "[block_reduce][normal]") { run(3, 8 * 128, 128, "four warps per block"); }
WB_TEST("block_reduce: 256 threads", "[block_reduce][normal]") { run(3, 8 * 256, 256, "eight warps per block"); }
WB_TEST("block_reduce: 512 threads", "[block_reduce][normal]") { run(3, 8 * 512, 512, "sixteen warps per block"); }
WB_TEST("block_reduce: 1024 threads (32 warps)", "[block_reduce][normal]") {
    run(3, 8 * 1024, 1024, "the largest block: 32 warp sums, exactly one warp's worth for the second step");
}
WB_TEST("block_reduce: fractional values", "[block_reduce][normal]") {
    run(4, 3000, 256, "random N(0,1) values: sums are rounded in fp32, within the bound of any summation order", false);
}
WB_TEST("block_reduce: N not a multiple of the block size", "[block_reduce][edge]") {
    run(3, 1000, 256, "1000 elements over 256 threads: the last pass over the row is partial");
}
WB_TEST("block_reduce: N not a multiple of 32", "[block_reduce][edge]") {
    run(3, 777, 128, "777 elements over 128 threads: the last chunk ends in the middle of a warp");
}
WB_TEST("block_reduce: N one more than the block", "[block_reduce][edge]") {
    run(3, 257, 256, "257 elements over 256 threads: thread 0 alone has a second element");
}
WB_TEST("block_reduce: N equal to the block size (every block size)", "[block_reduce][edge]") {
    for (int b : kBlockSizes) run(2, b, b, "one element per thread, for each block size");
}
WB_TEST("block_reduce: N smaller than a warp (every block size)", "[block_reduce][edge]") {
    for (int b : kBlockSizes) run(3, 5, b, "5 elements: most lanes and all warps but the first have nothing to add");
}
WB_TEST("block_reduce: N = 1 (every block size)", "[block_reduce][edge]") {
    for (int b : kBlockSizes) run(3, 1, b, "a single element: every thread must still receive it as the total");
}
WB_TEST("block_reduce: N smaller than the block", "[block_reduce][edge]") {
    run(3, 100, 1024, "100 elements over 1024 threads: 28 of the 32 warps hold nothing");
}
WB_TEST("block_reduce: many rows", "[block_reduce][edge]") {
    run(1000, 40, 32, "1000 blocks: each must reduce and write only its own row");
}
WB_TEST("block_reduce: long rows", "[block_reduce][edge]") {
    run(2, 16384, 1024, "16 elements per thread with the largest block");
}
WB_TEST("block_reduce: empty rows (N = 0) for every block size", "[block_reduce][edge]") {
    for (int b : kBlockSizes) run(3, 0, b, "rows of no elements: every thread must still write the total, 0");
}
WB_TEST("block_reduce: no rows (M = 0)", "[block_reduce][edge]") {
    run(0, 256, 256, "an empty batch: nothing to reduce, and a grid of 0 blocks is a launch error");
}
WB_TEST("block_reduce: a block size outside the list launches nothing", "[block_reduce][edge]") {
    for (int b : {48, 2048}) run(3, 100, b, "block_size 48 (not whole warps) and 2048 (more than a block can hold)");
}
