#include "tools/status.hpp"

#include <algorithm>
#include <system_error>

#include "review/edit_check.hpp"
#include "review/errors.hpp"
#include "review/files.hpp"
#include "tools/state.hpp"

namespace fs = std::filesystem;

namespace workbook::tools {

std::vector<ExerciseStatus> lesson_status(const review::LessonPaths& lesson) {
    const nlohmann::json manifest = review::load_json(lesson.manifest());
    const nlohmann::json hints = hints_used(lesson.root, lesson.id);
    const fs::path results_path = lesson.results_dir() / "results.json";
    nlohmann::json results;
    std::error_code ec;
    fs::file_time_type results_time{};
    if (fs::exists(results_path, ec)) {
        try {
            results = review::load_json(results_path);
            results_time = fs::last_write_time(results_path, ec);
        } catch (const review::UserError&) {
            results = nullptr;  // an unreadable results file only means "not graded yet"
        }
    }
    const bool graded_here = results.is_object() && results.contains("extra_data") &&
                             results["extra_data"].value("submission", std::string()) == "exercises/" + lesson.id;

    std::vector<ExerciseStatus> out;
    for (const auto& ex : review::exercises_of(manifest)) {
        ExerciseStatus s;
        s.name = ex.name;
        if (hints.contains(ex.name) && hints[ex.name].is_object())
            for (const auto& [blank, level] : hints[ex.name].items())
                if (level.is_number()) s.hint_levels += level.get<int>();
        const fs::path file = lesson.exercises_dir() / ex.file;
        const fs::path pristine = lesson.pristine_dir() / ex.file;
        if (!fs::exists(file, ec)) {
            s.state = "missing";
            s.detail = review::display_path(file, lesson.root) + " does not exist (`make reset-" + lesson.number +
                       " EX=" + ex.name + "` restores it)";
            out.push_back(s);
            continue;
        }
        std::size_t filled = 0, total = ex.blanks.size();
        bool edited_outside = false;
        try {
            std::string text = review::read_text(file);
            if (fs::exists(pristine, ec)) {
                review::EditCheck check = review::edit_check_text(review::read_text(pristine), text, ex.file, ex.blanks);
                edited_outside = !check.ok;
                total = check.ok ? check.fills.size() : total;
                for (const auto& f : check.fills) filled += f.unfilled ? 0 : 1;
            }
        } catch (const review::UserError& e) {
            s.state = "in progress";
            s.detail = e.what();
            if (!s.detail.empty() && s.detail.back() == '.') s.detail.pop_back();
            out.push_back(s);
            continue;
        }
        s.state = filled == 0 && !edited_outside ? "untouched" : "in progress";
        s.detail = edited_outside ? "code outside the blanks was changed (a veto)"
                                  : std::to_string(filled) + " of " + std::to_string(total) + " blanks filled";
        const nlohmann::json::json_pointer ptr("/extra_data/exercises/" + ex.name);
        if (graded_here && results.contains(ptr)) {
            const auto& r = results[ptr];
            const std::string backend = results["extra_data"].value("backend", std::string("?"));
            const bool changed_since = fs::last_write_time(file, ec) > results_time;
            // A vetoed exercise scored 0 whatever its tests found: not "passing".
            if (r.value("all_passed", false) && !r.value("vetoed", false)) {
                if (changed_since) {
                    s.detail += "; passed at the last grade (" + backend + "), changed since";
                } else {
                    s.state = "passing";
                    s.detail = "all hidden tests passed (" + backend + ")";
                }
            } else if (backend == "static") {
                s.detail += "; last grade was a static review only (tests pending)";
            } else {
                s.detail += "; " + std::to_string(r.value("tests_passed", 0)) + " of " +
                            std::to_string(r.value("tests_total", 0)) + " tests passed at the last grade (" + backend + ")";
            }
        }
        out.push_back(s);
    }
    return out;
}

std::string format_status(const review::LessonPaths& lesson, const std::vector<ExerciseStatus>& rows) {
    std::size_t w = 8;
    for (const auto& r : rows) w = std::max(w, r.name.size());
    std::string s = "Lesson " + lesson.id + "\n";
    for (const auto& r : rows) {
        std::string name = r.name + std::string(w - r.name.size(), ' ');
        std::string state = r.state + std::string(r.state.size() < 12 ? 12 - r.state.size() : 0, ' ');
        s += "  " + name + "  " + state + "  " + r.detail;
        if (r.hint_levels > 0) s += "; " + std::to_string(r.hint_levels) + " hint level" + (r.hint_levels == 1 ? "" : "s") + " used";
        s += "\n";
    }
    s += "Grade with `make grade-" + lesson.number + "`; a hint with `make hint-" + lesson.number + " EX=<name>`.\n";
    return s;
}

}  // namespace workbook::tools
