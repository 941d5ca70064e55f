// The launch-shape rule of lesson 05's reference LayerNorm: lesson 04's shapes (../../04-rmsnorm/kernels/
// launch_shape.h) with LayerNorm's own table. Host code.
#pragma once

#include "../../04-rmsnorm/kernels/launch_shape.h"

namespace lnref {

// Session 8 (2026-12-07), predicted from registers and bytes in flight before any GPU measured it (docs/gpu-runs/
// 2026-12-07-layernorm8-predictions.md, L1-L6; measured since on an H100 only, run 20): a multiprocessor keeps about 64 KiB of x in flight only with 2048
// threads of 32 bytes (16-bit: 2 packs a thread, 29-32 registers with weight and bias loaded late, one pack at a
// time) or 1024 threads of 64 bytes; one pack a 16-bit thread (the rule before: 16 bytes) leaves it at 32 KiB.
// fp32: 4 packs, capped at 32 registers (no spill: 2048 threads of 64 bytes). Short batches of 16-bit rows up to
// 4096 elements: one pack with weight and bias early (a block of at most 512 threads, four of them a multiprocessor:
// the 512 rows in one wave, and the parameters' loads off the path from the reductions to the stores).
// The plain 16-bit norm's 2 packs stream (kOptStream): chosen from run 20's tuning sweep, measured on an H100 80GB
// HBM3, not an H200 (docs/gpu-runs.md, 2026-12-07): of the 9 quick shapes that take this entry, streaming was as
// fast or faster at 9 in bf16 and 8 in fp16 (512 x 5120: 0.2 % slower), by up to 3 %; geometric mean of time over
// the best shape's 1.012 -> 1.002 bf16, 1.016 -> 1.003 fp16. The fused add's was mixed there (faster at 512 rows,
// 1-2 % slower at 4096 rows and more: 1.009 -> 1.011), so it does not stream.
inline rmsref::RuleEntry rule_entry(int elem_bytes, bool fused, bool short_batch, int n) {
    if (elem_bytes == 4) return {4, false, rmsref::kOptCap};
    if (short_batch && n <= 4096) return {1, true};
    return {2, false, fused ? 0 : rmsref::kOptStream};
}

inline rmsref::LaunchShape choose_shape(int n, int elem_bytes, int m, bool fused) {
    return rmsref::shape_for(n, elem_bytes, rule_entry(elem_bytes, fused, m <= rmsref::kShortBatchRows, n));
}

}  // namespace lnref
