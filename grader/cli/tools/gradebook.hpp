// The class gradebook: one CSV row per student, rendered from that student's results.json (the grader's one results
// model), with the columns the lesson defines: the core score, each rubric line of the core (its hidden-test groups
// and written items), each extension, the total, whether the lesson was passed, the backend, and a reason column
// that says in a few words why points were lost.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lesson/lesson.hpp"

namespace workbook::tools {

struct GradebookColumn {
    std::string header;  // "rmsnorm normal (2)", "Q1 (2)", "block_reduce (4)"
    // Where the value is in results.json: a JSON pointer; empty for the computed columns.
    std::string pointer;
    bool points = true;  // a score: an item the run did not grade shows 0, not an empty cell
};

// student, core, the core's rubric lines, extensions, total, passed, backend, reason.
std::vector<GradebookColumn> gradebook_columns(const lesson::Lesson& lesson);

struct GradebookRow {
    std::string student;
    nlohmann::json results;  // null when the student could not be graded
    std::string error;       // then: why, in a few words
};

std::string gradebook_csv(const lesson::Lesson& lesson, const std::vector<GradebookRow>& rows);

// RFC 4180 field; a leading = + - @ is neutralized so a spreadsheet never runs a student-chosen name as a formula.
std::string csv_field(std::string s);

}  // namespace workbook::tools
