// The worker's table of lesson 05's entry points (grader/harness/worker/entries.hpp). Compiled once per backend and
// linked into every worker of this lesson, whichever exercise's file it holds.
#include "entry_points.hpp"
#include "entries.hpp"

WB_WORKER_ENTRIES(WB05_ENTRY_POINTS)
