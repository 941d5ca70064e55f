// Seam between the grading pipeline (grader/cli/grade/, main.cpp; owner: "pipeline") and the static review and tools
// (grader/cli/review/, grader/cli/tools/; owner: "review").
//
// To the review engineer: these are the functions the pipeline and main.cpp call. Please implement them with exactly
// these signatures (or tell the pipeline engineer what to change). Once your own headers exist, include them here
// instead of the declarations below; the pipeline includes only this file.
//
// Shared helpers you can use (implemented by the pipeline in grader/cli/grade/):
//   grade/context.hpp  workbook::Context (repository root, build dir, workbook-config.json), find_context()
//   grade/lesson.hpp   workbook::Lesson (lesson.json parsed), resolve_lesson("04"), known_lessons()
//   grade/grade.hpp    workbook::grade::GradeOptions / run_grade(): the whole pipeline, for class grading & watch
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace CLI {
class App;
}

namespace workbook::review {

// Blank ids (from lesson.json, in file order) whose `______` is still present in `student`. Empty = all filled.
std::vector<std::string> unfilled_blanks(const std::filesystem::path& student, const std::vector<std::string>& blank_ids);

// Token comparison of `student` with the pristine starter, `______` a wildcard (architecture.md, "Blank markers").
struct EditCheck {
    bool ok = true;        // false = an edit outside the blanks: a veto
    std::string reason;    // one sentence, e.g. "rmsnorm.cu: code outside the blanks was changed (line 42)"
    std::string diff;      // small unified-style diff of the offending tokens/lines, for the report
};
EditCheck edit_check(const std::filesystem::path& pristine, const std::filesystem::path& student);

// Lesson-specific review comments (review rules from lesson.json). `veto` marks a comment that vetoes the grade
// (e.g. a hard-coded size); others are advice shown in the report.
struct Comment {
    std::string file;
    int line = 0;
    std::string text;
    bool veto = false;
};
std::vector<Comment> review_comments(const nlohmann::json& lesson_json, const std::string& exercise,
                                     const std::filesystem::path& student);

// `nvcc -std=c++17 -c` of one student file with the ptxas resource report (registers, spills, shared memory).
// ran=false when no nvcc was given/found.
struct StaticCompile {
    bool ran = false;
    bool ok = false;
    std::string output;        // compiler diagnostics, trimmed, student file:line kept
    std::string ptxas_report;  // one line per kernel, readable
};
StaticCompile nvcc_static_compile(const std::string& nvcc, const std::filesystem::path& student,
                                  const std::filesystem::path& work_dir);

// Provisional scoring of answers.md against grader/rubrics/<lesson>-written.json.
struct WrittenScore {
    std::string id;         // "explanation", "Q1", "Q2", "Q3"
    std::string group;      // "explanation" or "question"
    std::string exercise;   // exercise the item belongs to in the rubric table (the core exercise for Q1-Q3)
    double score = 0;
    double max_score = 0;
    std::string feedback;   // concepts found / missing, one short paragraph
};
std::vector<WrittenScore> score_written(const nlohmann::json& lesson_json, const std::filesystem::path& answers_md,
                                        const std::filesystem::path& repo_root);

}  // namespace workbook::review

namespace workbook::tools {

// Hints revealed so far for a lesson, from .workbook/state.json: {"<exercise>": {"<blank>": level, …}, …}.
// Empty object when there is no state.
nlohmann::json hints_used(const std::filesystem::path& repo_root, const std::string& lesson_id);

// Subcommands. Each adds itself to `app` with its options and a callback; a callback signals a non-zero exit status
// by throwing CLI::RuntimeError(code). Names and the Makefile targets that call them:
//   hint     `workbook hint 04 --ex NAME [--level N]`          make hint-04 EX=…
//   status   `workbook status`                                 make status
//   reset    `workbook reset 04 --ex NAME`                      make reset-04 EX=…
//   report   `workbook report 04 [--submission DIR]`           make report-04
//   watch    `workbook watch 04 [--ex NAME] [--backend B]`      make watch-04
//   sync     `workbook sync [--check]`                          make test (via ctest)
//   class    `workbook grade-class 04 --submissions DIR [--backend B]`   make grade-class SUBMISSIONS=…
//   gradescope `workbook gradescope 04 [--out FILE]`           make gradescope-04
//   solutions-branch `workbook solutions-branch`                make solutions-branch
//   student-edition  `workbook student-edition [--out DIR]`     make student-edition
void add_hint_command(CLI::App& app);
void add_status_command(CLI::App& app);
void add_reset_command(CLI::App& app);
void add_report_command(CLI::App& app);
void add_watch_command(CLI::App& app);
void add_sync_command(CLI::App& app);
void add_class_command(CLI::App& app);
void add_gradescope_command(CLI::App& app);
void add_solutions_branch_command(CLI::App& app);
void add_student_edition_command(CLI::App& app);

}  // namespace workbook::tools
