// `workbook grade <lesson>`: static review, build, hidden tests, rubric, results.json and the report.
// Also called by class grading and watch (grader/cli/tools/) for one submission at a time.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>
#include <string>

#include <nlohmann/json.hpp>

#include "util/context.hpp"

namespace CLI {
class App;
}

namespace workbook::grade {

struct GradeOptions {
    std::string lesson = "04";
    std::string submission;        // folder; empty: exercises/<lesson> (or solutions/<lesson> with `solutions`)
    std::string backend = "auto";  // auto | gpu | emu | static
    std::string exercise;          // grade this exercise alone
    bool solutions = false;
    std::optional<std::uint64_t> seed;
    std::string json_out;      // also write results.json here; "-": to stdout (then nothing else is printed)
    bool print_report = true;  // the readable report on stdout
    // build/results/<n>/runs/<run>/results.json, and build/results/<n>/results.json pointed at it
    bool write_default_results = true;
    std::string submission_label;   // how the report names the submission (default: its path); class grading
    std::string work_dir;           // where harnesses are built (default: the build folder); class grading
    std::vector<std::string> hide;  // more folders the submission's code must not see (grade-class: the class)
    bool sanitize = false;          // gpu: also run compute-sanitizer's four tools on every test (sanitize.hpp)
    std::vector<std::string> sanitize_tools;  // the tools to run (SANITIZE=memcheck,racecheck); empty: all four
};

struct GradeOutcome {
    // 0 passed, 1 not passed (or pending), 2 a usage problem (unknown name or backend, no submission folder),
    // 3 the grader itself is incomplete (nothing to build the tests with), 130 interrupted.
    int exit_code = 2;
    bool passed = false;
    std::string error;                   // one sentence when exit_code is 2 or 3 and nothing was graded
    nlohmann::json results;              // results.json content when graded
    std::filesystem::path results_path;  // this run's own results.json
};

GradeOutcome run_grade(const util::Context& ctx, const GradeOptions& opt);

void add_grade_command(CLI::App& app);

}  // namespace workbook::grade
