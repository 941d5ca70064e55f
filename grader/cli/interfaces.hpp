// Seam between the grading pipeline (grader/cli/grade/, main.cpp; owner: "pipeline") and the static review and tools
// (grader/cli/review/, grader/cli/tools/; owner: "review").
//
// The review functions the pipeline calls come from review's own headers, included here. What is still declared
// below is what main.cpp needs from the tools: to the review engineer, please define these with exactly these
// signatures (or tell the pipeline engineer what to change).
//
// Shared helpers the tools can use (implemented by the pipeline in grader/cli/grade/):
//   grade/context.hpp  workbook::Context (repository root, build dir, workbook-config.json), find_context()
//   grade/lesson.hpp   workbook::Lesson (lesson.json parsed: exercises, points, written items), resolve_lesson()
//   grade/grade.hpp    workbook::grade::GradeOptions / run_grade(): the whole pipeline for one submission, for class
//                      grading and watch (print_report=false, json_out=… to collect results.json per submission)
#pragma once

#include "review/blanks.hpp"          // find_unfilled, unfilled_message
#include "review/comments.hpp"        // review_comments
#include "review/edit_check.hpp"      // edit_check_text
#include "common/errors.hpp"          // UserError
#include "review/static_compile.hpp"  // nvcc_static_compile
#include "review/written.hpp"         // score_written
#include "tools/state.hpp"            // hints_used

namespace CLI {
class App;
}

namespace workbook::tools {

// Subcommands. Each adds itself to `app` with its options and a callback; a callback signals a non-zero exit status
// by throwing CLI::RuntimeError(code) after printing its own message. Names and the Makefile targets that call them:
//   hint     `workbook hint 04 --ex NAME [--blank ID] [--level N]`   make hint-04 EX=… [BLANK=…] [LEVEL=…]
//   status   `workbook status`                                      make status
//   reset    `workbook reset 04 --ex NAME`                           make reset-04 EX=…
//   report   `workbook report 04 [--submission DIR]`                make report-04 [SUBMISSION=…]
//   watch    `workbook watch 04 [--ex NAME] [--backend B]`           make watch-04 [EX=…] [BACKEND=…]
//   sync     `workbook sync [--check]`                               (ctest: sync.check)
//   grade-class `workbook grade-class 04 --submissions DIR [--backend B] [--out DIR]`  make grade-class SUBMISSIONS=…
//   gradescope  `workbook gradescope 04 [--out FILE]`                make gradescope-04
//   solutions-branch `workbook solutions-branch`                     make solutions-branch
//   student-edition  `workbook student-edition [--out DIR]`          make student-edition
void add_hint_command(CLI::App& app);
void add_status_command(CLI::App& app);
void add_reset_command(CLI::App& app);
void add_restore_command(CLI::App& app);
void add_report_command(CLI::App& app);
void add_watch_command(CLI::App& app);
void add_sync_command(CLI::App& app);
void add_check_command(CLI::App& app);
void add_new_lesson_command(CLI::App& app);
void add_class_command(CLI::App& app);
void add_gradescope_command(CLI::App& app);
void add_solutions_branch_command(CLI::App& app);
void add_student_edition_command(CLI::App& app);

}  // namespace workbook::tools
