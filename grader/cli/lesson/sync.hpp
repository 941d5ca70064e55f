// Starters and pristine copies generated from the marked solutions (`workbook sync`), and the check that they are
// in sync (`workbook sync --check`, run by `make test`).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "lesson/lesson.hpp"

namespace workbook::review {

struct SyncReport {
    bool in_sync = true;                  // --check: nothing differs and lesson.json agrees
    std::vector<std::string> problems;    // --check: one line per differing/missing file or blank-id mismatch
    std::vector<std::string> actions;     // write mode: what was written, what was backed up and where
    std::filesystem::path backup_dir;     // empty when nothing needed a backup
};

// Solutions of a lesson: the marked .cu files directly in solutions/<lesson>/ (wrong/ and alt/ are not exercises).
std::vector<std::filesystem::path> solution_files(const lesson::Lesson& lesson);

// check=true compares only. check=false writes exercises/ and grader/pristine/; an exercise file that a student
// changed is first copied under .workbook/backups/<timestamp>/. Blank ids that disagree with lesson.json, or a
// malformed marker, throw UserError before anything is written.
SyncReport sync_lesson(const lesson::Lesson& lesson, bool check);

}  // namespace workbook::review
