// Hidden tests of the vectorized exercise: bf16 through 16-byte loads, for any 2-byte aligned pointers, odd N,
// row strides other than N, and in place.
#include <limits>

#include "entry_points.hpp"
#include "remote/call.hpp"
#include "common/runners.hpp"

namespace {

struct Layout {
    long long in_stride = 0, out_stride = 0;
    int in_offset = 0, out_offset = 0, w_offset = 0;
    bool in_place = false;
};

void run(int M, int N, Layout l, std::string probe, wb04::Fill fill = wb04::normal_inputs(), float eps = 1e-5f) {
    wb04::HalfCase c;
    c.type = wb04::Half::bf16;
    c.M = M;
    c.N = N;
    c.eps = eps;
    c.in_stride = l.in_stride;
    c.out_stride = l.out_stride;
    c.in_offset = l.in_offset;
    c.out_offset = l.out_offset;
    c.w_offset = l.w_offset;
    c.in_place = l.in_place;
    c.probe = std::move(probe);
    c.fill = std::move(fill);
    wb04::run_half_case(
        "launch_rmsnorm_vec",
        [](const void* in, long long in_stride, const void* w, void* out, long long out_stride, int m, int n, float e) {
            WB_CALL(launch_rmsnorm_vec, static_cast<const __nv_bfloat16*>(in), in_stride,
                    static_cast<const __nv_bfloat16*>(w), static_cast<__nv_bfloat16*>(out), out_stride, m, n, e,
                    cudaStream_t{});
        },
        c);
}

Layout offsets(int in, int out, int w = 0) {
    Layout l;
    l.in_offset = in;
    l.out_offset = out;
    l.w_offset = w;
    return l;
}
Layout strides(long long in, long long out) {
    Layout l;
    l.in_stride = in;
    l.out_stride = out;
    return l;
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace

WB_TEST("rmsnorm_vec: aligned 7 rows of 768", "[rmsnorm_vec][normal]") {
    run(7, 768, {}, "aligned, contiguous rows whose length is a multiple of 8: the vector path alone");
}
WB_TEST("rmsnorm_vec: aligned 83 rows of 4096", "[rmsnorm_vec][normal]") {
    run(83, 4096, {}, "a common hidden size, aligned, many blocks");
}
WB_TEST("rmsnorm_vec: aligned 7 rows of 5120", "[rmsnorm_vec][normal]") {
    run(7, 5120, {}, "a hidden size that is a multiple of 8 but not a power of two");
}
WB_TEST("rmsnorm_vec: input pointer misaligned by one element", "[rmsnorm_vec][edge]") {
    run(5, 768, offsets(1, 0), "input + 1: the input rows start 2 bytes past a 16-byte boundary");
}
WB_TEST("rmsnorm_vec: output pointer misaligned by three elements", "[rmsnorm_vec][edge]") {
    run(5, 768, offsets(0, 3), "output + 3, input aligned: the output's alignment differs from the input's");
}
WB_TEST("rmsnorm_vec: every pointer misaligned differently", "[rmsnorm_vec][edge]") {
    run(5, 768, offsets(1, 3, 5), "input + 1, output + 3, weight + 5: no two pointers share an alignment");
}
WB_TEST("rmsnorm_vec: all pointers misaligned by seven elements", "[rmsnorm_vec][edge]") {
    run(5, 1000, offsets(7, 7, 7), "every pointer 14 bytes past a 16-byte boundary: one element before the next one");
}
WB_TEST("rmsnorm_vec: row strides larger than N and not multiples of 8", "[rmsnorm_vec][edge]") {
    run(6, 768, strides(777, 781), "input rows 777 elements apart and output rows 781 apart: rows start misaligned");
}
WB_TEST("rmsnorm_vec: strides with misaligned pointers", "[rmsnorm_vec][edge]") {
    Layout l = strides(1030, 1027);
    l.in_offset = 3;
    l.out_offset = 1;
    run(5, 1024, l, "strided rows (1030 and 1027) from misaligned base pointers (+3 and +1)");
}
WB_TEST("rmsnorm_vec: odd hidden size 769", "[rmsnorm_vec][edge]") {
    run(8, 769, {}, "contiguous rows of 769: each row starts at a different alignment than the one before");
}
WB_TEST("rmsnorm_vec: in place", "[rmsnorm_vec][edge]") {
    Layout l;
    l.in_place = true;
    run(4, 768, l, "output == input: every element is read before it is overwritten");
}
WB_TEST("rmsnorm_vec: in place with a misaligned pointer and a stride", "[rmsnorm_vec][edge]") {
    Layout l = strides(1003, 1003);
    l.in_offset = 1;
    l.in_place = true;
    run(4, 1000, l, "output == input + 1 with stride 1003");
}
WB_TEST("rmsnorm_vec: hidden size 1", "[rmsnorm_vec][edge]") { run(5, 1, {}, "one element per row"); }
WB_TEST("rmsnorm_vec: hidden size 7 (less than one vector)", "[rmsnorm_vec][edge]") {
    run(5, 7, {}, "rows shorter than one 8-element vector");
}
WB_TEST("rmsnorm_vec: hidden size 9 misaligned", "[rmsnorm_vec][edge]") {
    run(5, 9, offsets(1, 2), "9 elements from misaligned pointers: prefix, at most one vector, tail");
}
WB_TEST("rmsnorm_vec: odd hidden size 5125", "[rmsnorm_vec][edge]") { run(3, 5125, {}, "a long odd row"); }
WB_TEST("rmsnorm_vec: odd hidden size 8199 with stride 8203", "[rmsnorm_vec][edge]") {
    run(3, 8199, strides(8203, 8200), "a long odd row, strided input and output");
}
WB_TEST("rmsnorm_vec: hidden size 16384", "[rmsnorm_vec][edge]") {
    run(3, 16384, {}, "the widest row of the lesson: 8 vectors per thread of a 256-thread block");
}
WB_TEST("rmsnorm_vec: a single misaligned row", "[rmsnorm_vec][edge]") {
    run(1, 4096, offsets(1, 1, 1), "M = 1 with every pointer 2 bytes past a boundary");
}
WB_TEST("rmsnorm_vec: 1024 rows of 8", "[rmsnorm_vec][edge]") {
    run(1024, 8, {}, "many rows of exactly one vector: every row must land in its own place");
}
WB_TEST("rmsnorm_vec: all-zero row stays finite (eps)", "[rmsnorm_vec][edge]") {
    run(5, 768, {}, "rows whose sum of squares is 0: the output must be 0",
        wb04::with_zero_rows(wb04::normal_inputs(), {2}));
}
WB_TEST("rmsnorm_vec: tiny magnitudes where eps dominates", "[rmsnorm_vec][edge]") {
    run(4, 1024, {}, "inputs around 1e-4 with eps 1e-5", wb04::normal_inputs(1e-4));
}
WB_TEST("rmsnorm_vec: eps comes from the caller", "[rmsnorm_vec][edge]") {
    run(4, 1000, offsets(3, 3, 3),
        "eps = 0.1 on rows of magnitude 1, every pointer 6 bytes past a boundary: where eps enters the formula shows "
        "in "
        "every row",
        wb04::normal_inputs(), 0.1f);
}
WB_TEST("rmsnorm_vec: eps 1e-6 as large as the mean square", "[rmsnorm_vec][edge]") {
    run(4, 1024, strides(1030, 1027),
        "strided rows of inputs around 1e-3 with eps = 1e-6: mean(x^2) and eps are of the same size",
        wb04::normal_inputs(1e-3), 1e-6f);
}
WB_TEST("rmsnorm_vec: NaN in one row does not leak into the others", "[rmsnorm_vec][edge]") {
    run(5, 771, strides(776, 771), "one NaN in row 2 of strided rows: only row 2 may be NaN",
        wb04::with_value(wb04::normal_inputs(), 2, 770, kNaN));
}
WB_TEST("rmsnorm_vec: no rows (M = 0)", "[rmsnorm_vec][edge]") {
    run(0, 768, strides(777, 781), "an empty batch: nothing to normalise, and a grid of 0 blocks is a launch error");
}
WB_TEST("rmsnorm_vec: empty rows (N = 0)", "[rmsnorm_vec][edge]") {
    run(3, 0, strides(8, 8), "rows of no elements, 8 elements apart: nothing may be written, not even in the gaps");
}
