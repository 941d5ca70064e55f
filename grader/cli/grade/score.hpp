// The lesson's rubric applied to a run: execution groups proportional to passed tests (2 decimals), written items
// from the provisional scoring, the core total and the pass rule (every core test passed, core total >= min_score,
// no veto, and the tests actually executed). A vetoed exercise earns 0 code points; a missing file earns 0 for its
// exercise. Also writes the reasons points were lost (ExerciseResult::reasons, Run::reasons).
#pragma once

#include "model.hpp"

namespace workbook::grade {

double round2(double x);
void score_run(Run& run);

}  // namespace workbook::grade
