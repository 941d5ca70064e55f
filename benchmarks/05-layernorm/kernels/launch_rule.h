// The launch-shape rule of lesson 05's reference LayerNorm: lesson 04's shapes (../../04-rmsnorm/kernels/
// launch_shape.h), with LayerNorm's own table. Weight and bias are always loaded after the reductions: early, the
// two of them double the registers held across both reductions, and run 2 (2026-12-01) measured the rule's bf16 block
// x4 with them early at 9 % of the copy (spilled). Host code.
#pragma once

#include "../../04-rmsnorm/kernels/launch_shape.h"

namespace lnref {

// Chosen from the tuning sweep of run 3 (2026-12-01, H200) with ../../04-rmsnorm/rule_from_tune.py: the variant
// with the best geometric mean over that run's shapes of (bandwidth / best shape's bandwidth), quoted beside it.
inline rmsref::RuleEntry rule_entry(int elem_bytes, bool, bool) {
    // fp32: 4 packs (0.972 short, 0.976 long); 16-bit, plain and fused: 1 pack (0.958 / 0.93 plain, 0.997 / 1.000
    // fused); at the large 16-bit shapes 1 pack is the best variant at 4 of 5 (8192 x 16384: 2 packs, 0.92 of it).
    return {elem_bytes == 4 ? 4 : 1, false};
}

inline rmsref::LaunchShape choose_shape(int n, int elem_bytes, int m, bool fused) {
    return rmsref::shape_for(n, elem_bytes, rule_entry(elem_bytes, fused, m <= rmsref::kShortBatchRows));
}

}  // namespace lnref
