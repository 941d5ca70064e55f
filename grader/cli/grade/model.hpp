// What one grade run found, exercise by exercise: the data the scorer, results.json and the report share.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "backend.hpp"
#include "build.hpp"
#include "lesson/lesson.hpp"
#include "runner.hpp"

namespace workbook::grade {

struct Veto {
    std::string exercise;
    std::string reason;  // one sentence
    std::string diff;    // may be empty
};

struct Comment {
    std::string exercise;
    std::string where;  // "rmsnorm.cu:42"
    std::string text;
};

// A rubric group of an exercise's execution points ("normal", "edge").
struct GroupResult {
    std::string name;
    double points = 0;
    int passed = 0;
    int total = 0;
    double earned = 0;
    // "run": tests ran; "pending": static review only; "not_run": file missing, blanks unfilled, did not compile,
    // no tests.
    std::string state = "not_run";
    std::string note;
    bool vetoed = false;  // the exercise is vetoed: tests may have run and passed, but the group earns 0
};

struct ExerciseResult {
    const lesson::Exercise* info = nullptr;
    std::filesystem::path file;
    // Non-empty: the file could not be graded (missing, a link, binary, too large); one sentence, no absolute path.
    // The exercise then scores 0 and nothing of it is built or run.
    std::string missing;
    std::string content_hash;
    std::string unfilled_message;  // non-empty: blanks left, friendly message
    std::vector<std::string> unfilled;
    bool edit_ok = true;
    bool fill_refused = false;   // the fill policy refused a fill: the file is never compiled or run
    std::string static_compile;  // static backend: nvcc diagnostics or the ptxas report
    bool static_compile_ok = true;
    Backend backend = Backend::static_only;  // where its hidden tests ran (the run's, or emu: runs_on_emulator)
    BuildResult build;
    bool attempted_build = false;
    std::string list_error;  // the harness could not list its tests
    std::vector<TestOutcome> tests;
    std::vector<GroupResult> groups;
    double earned = 0;
    double max = 0;
    bool all_passed = false;  // every hidden test ran and passed (vetoed or not: what the tests saw)
    bool vetoed = false;      // a veto names this exercise: its code points are 0
    bool gpu_verified = false;
    // Why points were lost, a few words each, no absolute paths ("did not compile", "3 of 18 tests failed: timed
    // out"); filled by the scorer, shown in results.json, the report and the gradebook.
    std::vector<std::string> reasons;
};

struct WrittenResult {
    std::string id, group, exercise, feedback;
    double score = 0, max_score = 0;
};

struct Run {
    lesson::Lesson lesson;
    Backend backend = Backend::emu;
    std::string backend_reason;  // why auto picked it
    std::string gpu_name;
    std::uint64_t seed = 0;
    std::filesystem::path submission;
    std::filesystem::path build_dir;  // the build folder: where `make profile-NN` left its last counts
    std::string submission_label;     // as shown to people
    std::string only_exercise;        // --ex
    std::vector<std::string> notes;   // extra files ignored, …
    std::vector<ExerciseResult> exercises;
    std::vector<WrittenResult> written;
    std::string answers_missing;  // non-empty: the answers file could not be graded (one sentence); its items score 0
    std::vector<Veto> vetoes;
    std::vector<Comment> comments;
    std::vector<std::string> warnings;  // graded anyway, but the student should fix it (a non-UTF-8 byte, …)
    nlohmann::json hints_used = nlohmann::json::object();  // {"<exercise>": {"<blank>": level}}
    nlohmann::json sandbox;  // the layers that confined the submission's code (from the judges); null: none ran
    bool sanitize = false;   // SANITIZE=1 was asked for (whatever the backend)
    std::vector<std::string> sanitize_tools;  // SANITIZE=<tools>: the tools asked for; empty: all four
    nlohmann::json sanitizer;  // SANITIZE=1 on gpu: compute-sanitizer's findings per exercise and tool (sanitize.hpp)
    // Scores.
    double core_score = 0, core_max = 0;
    double total_score = 0, total_max = 0;
    bool passed = false;
    bool pending = false;  // static-only: execution points pending
    bool gpu_verification_done = false;
    std::vector<std::string> reasons;  // every exercise's reasons, prefixed with its name, then the written answers'
    std::string verdict;               // one line
    double seconds = 0;
};

}  // namespace workbook::grade
