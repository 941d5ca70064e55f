// `workbook hint 04 --ex NAME [--blank ID] [--level N]`: the four hint levels of a blank (its "hints" in lesson.json:
// concept area, direction, key line, full answer), revealed one at a time and recorded in .workbook/state.json so the
// report can show how much help was used.
#pragma once

#include <string>
#include <vector>

#include "lesson/lesson.hpp"

namespace workbook::tools {

inline constexpr int kHintLevels = static_cast<int>(lesson::kHintLevels);
extern const char* const kHintLevelNames[kHintLevels];  // "concept area", "direction", "key line", "full answer"

struct HintResult {
    std::string exercise;
    std::string blank;
    int level = 0;                   // highest level now revealed (1..4)
    bool newly_revealed = false;     // false: the level was already revealed (shown again)
    std::vector<std::string> shown;  // texts of levels 1..level
    std::string note;                // e.g. the state file had to be repaired
};

// Reveals the next level (level == 0) or every level up to `level`. With `blank` empty, picks the first blank, in
// file order, that is still unfilled in the student's file and has levels left; else the first with levels left.
// Unknown exercise or blank: UserError.
HintResult reveal_hint(const lesson::Lesson& lesson, const std::string& exercise, const std::string& blank = "",
                       int level = 0);

std::string format_hint(const HintResult& r, const std::string& lesson_number);

}  // namespace workbook::tools
