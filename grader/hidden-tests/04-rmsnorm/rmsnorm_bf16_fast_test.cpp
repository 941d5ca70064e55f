// Hidden tests of the bf16 performance exercise: the `rmsnorm_half` bf16 contract (fp32 accumulation, the Llama
// order's two roundings) through the row-in-registers kernel, at the shapes where its launch rule changes (1, 2 and 4
// packs per thread, rows longer than its registers) and on rows that start off a 16-byte boundary. Few and small:
// the contract's numerics are tested at length by rmsnorm_half's tests.
#include "entry_points.hpp"
#include "remote/call.hpp"
#include "common/runners.hpp"

namespace {

void run(int M, int N, std::string probe, wb04::Fill fill = wb04::normal_inputs(), float eps = 1e-5f,
         int out_offset = 0, int w_offset = 0) {
    wb04::HalfCase c;
    c.out_offset = out_offset;
    c.w_offset = w_offset;
    c.type = wb04::Half::bf16;
    c.M = M;
    c.N = N;
    c.eps = eps;
    c.probe = std::move(probe);
    c.fill = std::move(fill);
    wb04::run_half_case(
        "launch_rmsnorm_bf16_fast",
        [](const void* in, long long, const void* w, void* out, long long, int m, int n, float e) {
            WB_CALL(launch_rmsnorm_bf16_fast, static_cast<const __nv_bfloat16*>(in),
                    static_cast<const __nv_bfloat16*>(w), static_cast<__nv_bfloat16*>(out), m, n, e, cudaStream_t{});
        },
        c);
}

}  // namespace

WB_TEST("rmsnorm_bf16_fast: 7 rows of 768", "[rmsnorm_bf16_fast][normal]") {
    run(7, 768, "96 packs a row: one pack per thread (two or four leave under two warps), three warps");
}
WB_TEST("rmsnorm_bf16_fast: 5 rows of 5120", "[rmsnorm_bf16_fast][normal]") {
    run(5, 5120, "640 packs a row: four packs per thread, 160 threads (five warps)");
}
WB_TEST("rmsnorm_bf16_fast: 3 rows of 16384", "[rmsnorm_bf16_fast][normal]") {
    run(3, 16384, "2048 packs a row: four packs per thread, 512 threads");
}
WB_TEST("rmsnorm_bf16_fast: odd hidden size 769", "[rmsnorm_bf16_fast][edge]") {
    run(7, 769, "every row after the first starts off a 16-byte boundary: prefix, packs and tail");
}
WB_TEST("rmsnorm_bf16_fast: hidden size 1 and 9", "[rmsnorm_bf16_fast][edge]") {
    run(5, 1, "one element per row: no whole pack at all");
    run(5, 9, "one pack and one element, or a prefix and a pack, depending on the row");
}
WB_TEST("rmsnorm_bf16_fast: rows longer than the registers hold", "[rmsnorm_bf16_fast][edge]") {
    run(2, 40000, "5000 packs a row: 1024 threads keep 4096 of them, the rest are read again");
}
WB_TEST("rmsnorm_bf16_fast: all-zero rows and no rows", "[rmsnorm_bf16_fast][edge]") {
    run(4, 1024, "rows whose sum of squares is 0: the output must be 0",
        wb04::with_zero_rows(wb04::normal_inputs(), {0, 3}));
    run(0, 1024, "an empty batch: a grid of 0 blocks is a launch error");
}
WB_TEST("rmsnorm_bf16_fast: output and weight misaligned unlike the input", "[rmsnorm_bf16_fast][edge]") {
    run(3, 1024,
        "the output 3 elements and the weight 5 past a 256-byte boundary, the input aligned: the input's "
        "packs are whole 16-byte loads while the output's and the weight's are not",
        wb04::normal_inputs(), 1e-5f, 3, 5);
}
