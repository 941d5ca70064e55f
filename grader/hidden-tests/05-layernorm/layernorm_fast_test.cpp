// Hidden tests of the performance exercise: the bf16 contract of layernorm_half through launch_layernorm_fast, for
// pointers at every alignment, row lengths around each register-cache capacity, and rows longer than the cache.
#include <limits>

#include "entry_points.hpp"
#include "remote/call.hpp"
#include "common/runners.hpp"

namespace {

struct Offsets {
    int in = 0, out = 0, w = 0, b = 0;
};

void run(int M, int N, Offsets o, std::string probe, wb05::Fill fill = wb05::normal_inputs(), float eps = 1e-5f) {
    wb05::HalfCase c;
    c.type = wb05::Half::bf16;
    c.M = M;
    c.N = N;
    c.eps = eps;
    c.in_offset = o.in;
    c.out_offset = o.out;
    c.w_offset = o.w;
    c.b_offset = o.b;
    c.probe = std::move(probe);
    c.fill = std::move(fill);
    wb05::run_half_case(
        "launch_layernorm_fast",
        [](const void* in, const void* w, const void* b, void* out, int m, int n, float e) {
            WB_CALL(launch_layernorm_fast, static_cast<const __nv_bfloat16*>(in), static_cast<const __nv_bfloat16*>(w),
                    static_cast<const __nv_bfloat16*>(b), static_cast<__nv_bfloat16*>(out), m, n, e, cudaStream_t{});
        },
        c);
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace

// clang-format off
WB_TEST("layernorm_fast: aligned 7 rows of 768", "[layernorm_fast][normal]") { run(7, 768, {}, "aligned rows, a multiple of 8: packs alone"); }
WB_TEST("layernorm_fast: aligned 83 rows of 4096", "[layernorm_fast][normal]") { run(83, 4096, {}, "a common hidden size"); }
WB_TEST("layernorm_fast: aligned 7 rows of 5120", "[layernorm_fast][normal]") { run(7, 5120, {}, "a multiple of 8 that is not a power of two"); }
WB_TEST("layernorm_fast: input pointer misaligned by one element", "[layernorm_fast][edge]") {
  run(5, 768, {1, 0, 0, 0}, "input + 1: every row starts 2 bytes past a 16-byte boundary");
}
WB_TEST("layernorm_fast: output pointer misaligned by three elements", "[layernorm_fast][edge]") {
  run(5, 768, {0, 3, 0, 0}, "output + 3: the output's alignment differs from the input's");
}
WB_TEST("layernorm_fast: every pointer misaligned differently", "[layernorm_fast][edge]") {
  run(5, 1000, {1, 3, 5, 7}, "input + 1, output + 3, weight + 5, bias + 7: no two pointers share an alignment");
}
WB_TEST("layernorm_fast: all pointers misaligned by seven elements", "[layernorm_fast][edge]") {
  run(5, 1000, {7, 7, 7, 7}, "every pointer 14 bytes past a boundary: the prefix is one element");
}
WB_TEST("layernorm_fast: odd hidden size 769 (rows at changing alignments)", "[layernorm_fast][edge]") {
  run(8, 769, {}, "contiguous rows of 769: each row starts at another alignment than the one before");
}
WB_TEST("layernorm_fast: odd hidden size 8199 misaligned", "[layernorm_fast][edge]") {
  run(3, 8199, {3, 1, 0, 2}, "a long odd row from misaligned pointers");
}
WB_TEST("layernorm_fast: hidden size 770 misaligned", "[layernorm_fast][edge]") {
  run(4, 770, {5, 2, 6, 3}, "770 = 96 packs + 2 from pointers that share no alignment");
}
WB_TEST("layernorm_fast: hidden size 5124", "[layernorm_fast][edge]") { run(3, 5124, {}, "rows at alternating alignments, 640 packs + 4"); }
WB_TEST("layernorm_fast: hidden size 1", "[layernorm_fast][edge]") { run(5, 1, {}, "one element per row"); }
WB_TEST("layernorm_fast: hidden size 7 (less than one pack)", "[layernorm_fast][edge]") { run(5, 7, {}, "rows shorter than one 8-element pack"); }
WB_TEST("layernorm_fast: hidden size 9 misaligned", "[layernorm_fast][edge]") { run(5, 9, {1, 2, 3, 4}, "prefix, at most one pack, tail"); }
WB_TEST("layernorm_fast: hidden size 2048", "[layernorm_fast][edge]") { run(3, 2048, {}, "exactly one pack per thread of a 256-thread block"); }
WB_TEST("layernorm_fast: hidden size 2063", "[layernorm_fast][edge]") { run(3, 2063, {}, "one pack more than one per thread"); }
WB_TEST("layernorm_fast: hidden size 4104", "[layernorm_fast][edge]") { run(3, 4104, {}, "one pack more than two per thread"); }
WB_TEST("layernorm_fast: hidden size 8200", "[layernorm_fast][edge]") { run(3, 8200, {}, "one pack more than four per thread of 256"); }
WB_TEST("layernorm_fast: hidden size 16384", "[layernorm_fast][edge]") { run(3, 16384, {}, "the full register cache"); }
WB_TEST("layernorm_fast: hidden size 16400 misaligned", "[layernorm_fast][edge]") {
  run(2, 16400, {1, 0, 0, 0}, "a row longer than the widest cache: no fixed capacity may cut it");
}
WB_TEST("layernorm_fast: hidden size 20000", "[layernorm_fast][edge]") { run(2, 20000, {}, "far past the cache"); }
WB_TEST("layernorm_fast: large mean", "[layernorm_fast][edge]") {
  run(4, 2048, {}, "inputs 64 + N(0,1): the mean must be subtracted in fp32", wb05::normal_inputs(1.0, 64.0));
}
WB_TEST("layernorm_fast: constant rows", "[layernorm_fast][edge]") {
  run(4, 1000, {1, 1, 1, 1}, "rows 1 and 2 constant: variance 0, output = bias",
      wb05::with_constant_rows(wb05::normal_inputs(), {1, 2}, -2.0));
}
WB_TEST("layernorm_fast: tiny magnitudes where eps dominates", "[layernorm_fast][edge]") {
  run(4, 1024, {}, "inputs around 1e-3 with eps 1e-5", wb05::normal_inputs(1e-3));
}
WB_TEST("layernorm_fast: a single misaligned row", "[layernorm_fast][edge]") { run(1, 4096, {1, 1, 1, 1}, "M = 1 with every pointer 2 bytes past a boundary"); }
WB_TEST("layernorm_fast: 1024 rows of 8", "[layernorm_fast][edge]") { run(1024, 8, {}, "many rows of one pack each"); }
WB_TEST("layernorm_fast: NaN in one row does not leak", "[layernorm_fast][edge]") {
  run(5, 771, {}, "one NaN in the tail of row 2", wb05::with_value(wb05::normal_inputs(), 2, 770, kNaN));
}
WB_TEST("layernorm_fast: no rows (M = 0)", "[layernorm_fast][edge]") { run(0, 768, {}, "an empty batch"); }
WB_TEST("layernorm_fast: empty rows (N = 0)", "[layernorm_fast][edge]") { run(3, 0, {}, "rows of no elements"); }
// clang-format on
