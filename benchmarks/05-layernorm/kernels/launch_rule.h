// The launch-shape rule of lesson 05's reference LayerNorm: lesson 04's shapes (../../04-rmsnorm/kernels/
// launch_shape.h) with LayerNorm's own table. Host code.
#pragma once

#include "../../04-rmsnorm/kernels/launch_shape.h"

namespace lnref {

// Session 8 (2026-12-07), predicted from registers and bytes in flight before the H200 measured it (docs/gpu-runs/
// 2026-12-07-layernorm8-predictions.md, L1-L6): a multiprocessor keeps about 64 KiB of x in flight only with 2048
// threads of 32 bytes (16-bit: 2 packs a thread, 29-32 registers with weight and bias loaded late, one pack at a
// time) or 1024 threads of 64 bytes; one pack a 16-bit thread (the rule before: 16 bytes) leaves it at 32 KiB.
// fp32: 4 packs, capped at 32 registers (no spill: 2048 threads of 64 bytes). Short batches of 16-bit rows up to
// 4096 elements: one pack with weight and bias early (a block of at most 512 threads, four of them a multiprocessor:
// the 512 rows in one wave, and the parameters' loads off the path from the reductions to the stores).
inline rmsref::RuleEntry rule_entry(int elem_bytes, bool fused, bool short_batch, int n) {
    if (elem_bytes == 4) return {4, false, rmsref::kOptCap};
    if (short_batch && n <= 4096) return {1, true};
    (void)fused;
    return {2, false};
}

inline rmsref::LaunchShape choose_shape(int n, int elem_bytes, int m, bool fused) {
    return rmsref::shape_for(n, elem_bytes, rule_entry(elem_bytes, fused, m <= rmsref::kShortBatchRows, n));
}

}  // namespace lnref
