// Hidden tests of the performance exercise: the same contract as the core exercise, so the same cases, plus row
// lengths that break vector loads and register caching assumptions.
#include "entry_points.hpp"
#include "remote/call.hpp"
#include "common/f32_cases.hpp"

namespace {
void run(const wb04::F32Case& c) {
  wb04::run_f32_case(
      "launch_rmsnorm_fast",
      [](const float* in, const float* w, float* out, int M, int N, float eps) {
        WB_CALL(launch_rmsnorm_fast, in, w, out, M, N, eps, cudaStream_t{});
      },
      c);
}
}  // namespace

WB04_F32_CASES("rmsnorm_fast", run)

WB_TEST("rmsnorm_fast: hidden size 4097 (rows not 16-byte aligned)", "[rmsnorm_fast][edge]") {
  run(wb04::f32_case(5, 4097, "N not a multiple of 4: every row after the first starts at a different alignment"));
}
WB_TEST("rmsnorm_fast: hidden size 6 (shorter than two float4)", "[rmsnorm_fast][edge]") {
  run(wb04::f32_case(9, 6, "rows shorter than two 4-element vectors, starting at alternating alignments"));
}
WB_TEST("rmsnorm_fast: hidden size 12290", "[rmsnorm_fast][edge]") {
  run(wb04::f32_case(2, 12290, "a wide row that is not a multiple of 4, 8 or the block size"));
}
WB_TEST("rmsnorm_fast: hidden size 20000 (longer than 16384)", "[rmsnorm_fast][edge]") {
  run(wb04::f32_case(2, 20000,
                     "a row longer than the widest row of the lesson: no fixed per-thread capacity may cut it"));
}

// Row lengths on both sides of every capacity a fast kernel is likely to switch at (256 x 1, 2, 4, 8 threads x items,
// then 512 x 8, 1024 x 8, 1024 x 16, then two passes), so every path of a kernel that dispatches on N runs, and a path
// sized one step too small loses the end of its longest rows. 256, 257, 1024, 4096, 4097, 8192 and 16384 are above.
WB_TEST("rmsnorm_fast: hidden size 512", "[rmsnorm_fast][edge]") {
  run(wb04::f32_case(3, 512, "exactly two elements per thread of a 256-thread block"));
}
WB_TEST("rmsnorm_fast: hidden size 513", "[rmsnorm_fast][edge]") {
  run(wb04::f32_case(3, 513, "one element more than two per thread of a 256-thread block"));
}
WB_TEST("rmsnorm_fast: hidden size 1025", "[rmsnorm_fast][edge]") {
  run(wb04::f32_case(3, 1025, "one element more than four per thread of a 256-thread block"));
}
WB_TEST("rmsnorm_fast: hidden size 1536", "[rmsnorm_fast][edge]") {
  run(wb04::f32_case(5, 1536, "a row between 1024 and 2048: six elements per thread of a 256-thread block"));
}
WB_TEST("rmsnorm_fast: hidden size 2048", "[rmsnorm_fast][edge]") {
  run(wb04::f32_case(3, 2048, "exactly eight elements per thread of a 256-thread block"));
}
WB_TEST("rmsnorm_fast: hidden size 2049", "[rmsnorm_fast][edge]") {
  run(wb04::f32_case(3, 2049, "one element more than eight per thread of a 256-thread block"));
}
WB_TEST("rmsnorm_fast: hidden size 8193", "[rmsnorm_fast][edge]") {
  run(wb04::f32_case(3, 8193, "one element more than eight per thread of a 1024-thread block"));
}
WB_TEST("rmsnorm_fast: hidden size 16385", "[rmsnorm_fast][edge]") {
  run(wb04::f32_case(2, 16385, "one element more than the widest row of the lesson"));
}

