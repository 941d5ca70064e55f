// `workbook status`: where a student stands, per exercise — untouched, in progress or passing (from the last
// results.json) — and how many hint levels they used.
#pragma once

#include <string>
#include <vector>

#include "lesson/lesson.hpp"

namespace workbook::tools {

struct ExerciseStatus {
    std::string name;
    std::string state;    // "untouched", "in progress", "passing", "missing"
    std::string detail;   // e.g. "2 of 3 blanks filled", "passed at the last grade (emu); changed since"
    int hint_levels = 0;  // hint levels revealed, all blanks together
};

std::vector<ExerciseStatus> lesson_status(const lesson::Lesson& lesson);

// A small table for the terminal, with the lesson's title line and what to do next.
std::string format_status(const lesson::Lesson& lesson, const std::vector<ExerciseStatus>& rows);

}  // namespace workbook::tools
