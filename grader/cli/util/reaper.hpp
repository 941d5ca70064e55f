// Processes that outlive what started them. A test's process group is killed when the test ends, but a program can
// leave it (setsid) or double-fork; Linux hands such orphans to the nearest "child subreaper" ancestor instead of
// init. A grader that is one kills them all once a grade (or a student, in class grading) is finished.
#pragma once

namespace workbook::util {

// Makes this process the subreaper of everything it starts (prctl PR_SET_CHILD_SUBREAPER). False when refused.
bool become_subreaper();

// Kills (SIGKILL) and reaps every child process this process has, repeating while killing one hands its own children
// to us. Call only when no child this process still waits for is running. Returns how many were killed.
int kill_orphans();

}  // namespace workbook::util
