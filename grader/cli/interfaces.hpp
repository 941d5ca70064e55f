// The subcommands main.cpp assembles, and the review functions the grading pipeline calls (from review's own
// headers, included here). Each subcommand's code lives with what it does: grade/ for `grade`, tools/ for the rest;
// lesson/ holds the lesson model every one of them reads (lesson/lesson.hpp, lesson/manifest.hpp).
#pragma once

#include "review/blanks.hpp"          // find_unfilled, unfilled_message
#include "review/comments.hpp"        // review_comments
#include "review/edit_check.hpp"      // edit_check_text
#include "util/errors.hpp"            // UserError
#include "review/static_compile.hpp"  // nvcc_static_compile
#include "review/written.hpp"         // score_written
#include "tools/state.hpp"            // hints_used

namespace CLI {
class App;
}

namespace workbook::tools {

// Subcommands. Each adds itself to `app` with its options and a callback; a callback signals a non-zero exit status
// by throwing CLI::RuntimeError(code) after printing its own message. Names and the Makefile targets that call them:
//   hint     `workbook hint NN --ex NAME [--blank ID] [--level N]`   make hint-NN EX=… [BLANK=…] [LEVEL=…]
//   status   `workbook status`                                      make status
//   reset    `workbook reset NN --ex NAME`                           make reset-NN EX=…
//   report   `workbook report NN [--submission DIR]`                make report-NN [SUBMISSION=…]
//   watch    `workbook watch NN [--ex NAME] [--backend B]`           make watch-NN [EX=…] [BACKEND=…]
//   sync     `workbook sync [--check]`                               make sync
//   check    `workbook check [NN]`                                   make check [LESSON=NN] (ctest review.lesson_check)
//   new-lesson `workbook new-lesson NN-name`                         (docs/adding-a-lesson.md)
//   grade-class `workbook grade-class NN --submissions DIR [--backend B] [--out DIR]`  make grade-class SUBMISSIONS=…
//   gradescope  `workbook gradescope NN [--out FILE]`                make gradescope-NN
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
