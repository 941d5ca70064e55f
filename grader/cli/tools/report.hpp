// `workbook report 04`: a Markdown submission report (build/results/<n>/report.md) a student can hand in or read:
// each exercise's code, where it ran, its test results with failures explained, the review's vetoes and comments,
// the written answers with their provisional scores, and the hints used.
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "review/manifest.hpp"

namespace workbook::tools {

struct ReportInput {
    std::filesystem::path submission;  // folder with the .cu files and answers.md; empty = exercises/<lesson>
    std::filesystem::path results;     // results.json; empty = build/results/<n>/results.json (may be absent)
    std::filesystem::path out;         // empty = build/results/<n>/report.md
};

// The report's Markdown. `results` null = not graded yet (the report says so and how to grade).
std::string render_report(const review::LessonPaths& lesson, const std::filesystem::path& submission,
                          const nlohmann::json& results, const nlohmann::json& hints);

// Renders and writes the report; returns where it went. Unknown lesson or missing submission folder: UserError.
std::filesystem::path write_report(const review::LessonPaths& lesson, const ReportInput& in);

}  // namespace workbook::tools
