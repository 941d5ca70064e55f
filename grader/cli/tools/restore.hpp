// `workbook restore 04 --ex NAME [--backup STAMP]`: brings an exercise file back from .workbook/backups/ (the most
// recent backup that holds it, or the one named), after saving the current file as a new backup. Nothing is lost:
// restoring twice swaps back.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "lesson/lesson.hpp"

namespace workbook::tools {

struct Backup {
    std::string stamp;           // the folder's name under .workbook/backups/, e.g. "20261201-093512" or "…-2"
    std::filesystem::path file;  // the saved copy of the exercise file
};

// The backups that hold `exercise`'s file, oldest first (a later "-N" counter sorts after an earlier one).
std::vector<Backup> backups_of(const lesson::Lesson& lesson, const std::string& exercise);

struct RestoreResult {
    std::filesystem::path file;   // the exercise file written
    std::string from;             // the backup's stamp
    std::filesystem::path saved;  // where the current version went; empty when there was none or it was the same
    std::string message;
};

// No backup at all, or no backup `stamp` (the message lists those there are): UserError, nothing changed.
RestoreResult restore_exercise(const lesson::Lesson& lesson, const std::string& exercise,
                               const std::string& stamp = "");

}  // namespace workbook::tools
