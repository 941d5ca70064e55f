#include "tools/hint.hpp"

#include <system_error>

#include "review/blanks.hpp"
#include "util/errors.hpp"
#include "util/files.hpp"
#include "tools/state.hpp"

namespace fs = std::filesystem;

namespace workbook::tools {

const char* const kHintLevelNames[kHintLevels] = {"concept area", "direction", "key line", "full answer"};

HintResult reveal_hint(const lesson::Lesson& lesson, const std::string& exercise, const std::string& blank, int level) {
    const lesson::Exercise& ex = lesson.exercise(exercise);
    const std::vector<std::string> ids = ex.blank_ids();
    if (level < 0 || level > kHintLevels)
        throw util::UserError("Hint levels go from 1 to 4; " + std::to_string(level) + " is not one of them.");

    HintResult r;
    r.exercise = exercise;
    nlohmann::json state = load_state(lesson.root, &r.note);
    nlohmann::json& used = state["lessons"][lesson.id]["hints"][exercise];
    if (!used.is_object()) used = nlohmann::json::object();
    auto revealed = [&](const std::string& b) {
        return used.contains(b) && used[b].is_number() ? used[b].get<int>() : 0;
    };

    if (!blank.empty()) {
        if (!ex.blank(blank)) {
            std::string names;
            for (const auto& b : ids) names += (names.empty() ? "" : ", ") + b;
            throw util::UserError("Exercise '" + exercise + "' has no blank '" + blank + "'; its blanks are: " + names +
                                  ".");
        }
        r.blank = blank;
    } else {
        if (ids.empty()) throw util::UserError("Exercise '" + exercise + "' has no blanks listed in lesson.json.");
        std::vector<std::string> unfilled;
        const fs::path student = lesson.exercises_dir() / ex.file();
        try {
            for (const auto& u : review::find_unfilled(util::read_text(student), ids)) unfilled.push_back(u.id);
        } catch (const util::UserError&) {
            // No readable exercise file: every blank counts as unfilled.
            unfilled = ids;
        }
        auto is_unfilled = [&](const std::string& b) {
            for (const auto& u : unfilled)
                if (u == b) return true;
            return false;
        };
        for (const auto& b : ids)
            if (r.blank.empty() && is_unfilled(b) && revealed(b) < kHintLevels) r.blank = b;
        for (const auto& b : ids)
            if (r.blank.empty() && revealed(b) < kHintLevels) r.blank = b;
        if (r.blank.empty()) r.blank = ids.back();
    }

    const auto& texts = ex.blank(r.blank)->hints;
    const int before = revealed(r.blank);
    const int target = level > 0 ? level : std::min(before + 1, kHintLevels);
    r.level = std::max(before, target);
    r.newly_revealed = target > before;
    for (int k = 0; k < target; ++k) r.shown.push_back(texts[static_cast<std::size_t>(k)]);
    if (r.newly_revealed) {
        used[r.blank] = target;
        save_state(lesson.root, state);
    }
    return r;
}

std::string format_hint(const HintResult& r, const std::string& lesson_number) {
    std::string s;
    if (!r.note.empty()) s += r.note + "\n";
    s += "Hints for blank '" + r.blank + "' of " + r.exercise + " (" + std::to_string(r.level) + " of " +
         std::to_string(kHintLevels) + " revealed):\n";
    for (std::size_t k = 0; k < r.shown.size(); ++k)
        s += "  " + std::to_string(k + 1) + ". " + kHintLevelNames[k] + ": " + r.shown[k] + "\n";
    if (r.level < kHintLevels)
        // BLANK= keeps the next call on this blank: without it the next call picks the first unfilled blank.
        s += "Run `make hint-" + lesson_number + " EX=" + r.exercise + " BLANK=" + r.blank +
             "` for the next level of this blank (" + kHintLevelNames[r.level] +
             "). Hints used are listed in your report.\n";
    else s += "That was the last level. Hints used are listed in your report.\n";
    return s;
}

}  // namespace workbook::tools
