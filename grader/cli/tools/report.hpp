// `workbook report 04`: a Markdown submission report (build/results/<n>/report.md) a student can hand in or read:
// each exercise's code, where it ran, its test results with failures explained, the review's vetoes and comments,
// the written answers with their provisional scores, and the hints used.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lesson/lesson.hpp"

namespace workbook::tools {

struct ReportInput {
    std::filesystem::path submission;  // folder with the .cu files and answers.md; empty = exercises/<lesson>
    std::filesystem::path results;     // results.json; empty = build/results/<n>/results.json (may be absent)
    std::filesystem::path out;         // empty = build/results/<n>/report.md
};

// Files of `submission` that are not what `results` graded: an exercise whose content differs from its
// content_sha256, answers.md when it differs from answers_sha256, or every file when the last grade was of another
// submission. Their results are left out of the report, never shown beside code they were not for.
std::vector<std::string> changed_since_grade(const lesson::Lesson& lesson, const std::filesystem::path& submission,
                                             const nlohmann::json& results);

// The report's Markdown. `results` null = not graded yet (the report says so and how to grade).
std::string render_report(const lesson::Lesson& lesson, const std::filesystem::path& submission,
                          const nlohmann::json& results, const nlohmann::json& hints);

struct ReportOutcome {
    std::filesystem::path path;        // where the report went
    std::vector<std::string> changed;  // changed_since_grade(): files whose results were left out
    bool graded = false;               // a results.json was found
};

// Renders and writes the report. Unknown lesson or missing submission folder: UserError.
ReportOutcome write_report(const lesson::Lesson& lesson, const ReportInput& in);

}  // namespace workbook::tools
