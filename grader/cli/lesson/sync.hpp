// Starters generated from the marked solutions (`workbook sync`, `make sync`) and the check that they are in sync
// (`workbook sync --check`; `workbook check` does it too). The edit check's pristine starter is derived the same way
// when it is needed (pristine_starter), never committed: only a student edition or a Gradescope bundle, which hold no
// solutions, carry it as files under grader/pristine/ (pristine_copies).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lesson/lesson.hpp"

namespace workbook::lesson {

struct SyncReport {
    bool in_sync = true;                // --check: nothing differs and lesson.json agrees
    std::vector<std::string> problems;  // --check: one line per differing/missing file or blank-id mismatch
    std::vector<std::string> actions;   // write mode: what was written, what was backed up and where
    std::filesystem::path backup_dir;   // empty when nothing needed a backup
};

// Solutions of a lesson: the marked .cu files directly in solutions/<lesson>/ (wrong/ and alt/ are not exercises).
std::vector<std::filesystem::path> solution_files(const lesson::Lesson& lesson);

// check=true compares only. check=false writes exercises/; an exercise file that a student changed is first copied
// under .workbook/backups/<timestamp>/. Blank ids that disagree with lesson.json, or a malformed marker, throw
// UserError before anything is written.
SyncReport sync_lesson(const lesson::Lesson& lesson, bool check);

// The starter `exercise` was handed out as, the reference of the edit check: made from its marked solution where the
// lesson's solutions are present, else read from grader/pristine/<lesson>/ (a student edition, a Gradescope bundle).
// nullopt when neither exists; UserError for a malformed marker.
std::optional<std::string> pristine_starter(const lesson::Lesson& lesson, const lesson::Exercise& exercise);

// What a copy of the course without solutions needs in their place: grader/pristine/<lesson>/<exercise>.cu for every
// exercise of every lesson under `root` (relative path, starter text).
std::vector<std::pair<std::filesystem::path, std::string>> pristine_copies(const std::filesystem::path& root);

}  // namespace workbook::lesson
