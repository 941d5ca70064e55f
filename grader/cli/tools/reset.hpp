// `workbook reset 04 --ex NAME`: the student's file goes to .workbook/backups/<timestamp>/ first, then the pristine
// starter is restored. Never loses work: if the backup cannot be made, nothing is changed.
#pragma once

#include <filesystem>
#include <string>

#include "lesson/lesson.hpp"

namespace workbook::tools {

struct ResetResult {
    std::filesystem::path file;    // the exercise file restored
    std::filesystem::path backup;  // where the previous version went; empty when there was nothing to save
    bool changed = false;          // false: the file already was the starter
    std::string message;           // what happened, for the terminal
};

ResetResult reset_exercise(const lesson::Lesson& lesson, const std::string& exercise);

}  // namespace workbook::tools
