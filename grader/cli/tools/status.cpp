#include "tools/status.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <system_error>

#include "review/edit_check.hpp"
#include "util/errors.hpp"
#include "lesson/sync.hpp"
#include "util/files.hpp"
#include "review/written.hpp"
#include "tools/state.hpp"

namespace fs = std::filesystem;

namespace workbook::tools {

namespace {

// The written answers' row: how many items are answered (not the placeholder), and their provisional points at the
// last grade of exercises/. None when the lesson has no written answers.
std::optional<ExerciseStatus> answers_status(const lesson::Lesson& lesson, const nlohmann::json& results,
                                             fs::file_time_type results_time) {
    std::error_code ec;
    const std::string& name = lesson.answers_file;
    if (!fs::exists(lesson.root / "grader" / "rubrics" / (lesson.id + "-written.json"), ec)) return std::nullopt;
    ExerciseStatus s;
    s.name = name;
    const fs::path file = lesson.exercises_dir() / name;
    if (!fs::exists(file, ec)) {
        s.state = "missing";
        s.detail = util::display_path(file, lesson.root) + " does not exist";
        return s;
    }
    std::size_t answered = 0, total = 0;
    try {
        for (const auto& w : review::score_written(lesson.raw, file, lesson.root)) {
            ++total;
            answered += w.placeholder ? 0 : 1;
        }
    } catch (const util::UserError& e) {
        s.state = "in progress";
        s.detail = e.what();
        return s;
    }
    s.state = answered == 0 ? "untouched" : answered == total ? "answered" : "in progress";
    s.detail = std::to_string(answered) + " of " + std::to_string(total) + " answered";
    if (results.is_object() && results.contains("tests") && results["tests"].is_array()) {
        double score = 0, max = 0;
        bool any = false;
        for (const auto& t : results["tests"]) {
            if (!t.contains("tags") || !t["tags"].is_array()) continue;
            bool provisional = false;
            for (const auto& tag : t["tags"]) provisional |= tag.is_string() && tag.get<std::string>() == "provisional";
            if (!provisional) continue;
            any = true;
            score += t.value("score", 0.0);
            max += t.value("max_score", 0.0);
        }
        if (any) {
            char buf[64];
            std::snprintf(buf, sizeof buf, "%g / %g", score, max);
            s.detail += std::string("; ") + buf + " (provisional) at the last grade" +
                        (fs::last_write_time(file, ec) > results_time ? ", changed since" : "");
        }
    }
    return s;
}

// One grade run's results, read from its results.json.
struct Run {
    nlohmann::json results;
    fs::file_time_type time{};
};

// The finished grade runs of exercises/<lesson> (build/results/<n>/runs/*/results.json, grade/result_files.hpp),
// newest first. A grade with EX= holds only its own exercise, so each exercise's last grade is the first of these that
// holds it, not simply the latest run. An older unreadable run only means "not graded there"; when the newest run
// cannot be read, *unreadable says why, since every exercise's last grade is then unknown.
std::vector<Run> graded_runs(const lesson::Lesson& lesson, std::string* unreadable) {
    std::error_code ec;
    std::vector<fs::path> files;
    for (const auto& d : fs::directory_iterator(lesson.results_dir() / "runs", ec))
        if (fs::is_regular_file(d.path() / "results.json", ec)) files.push_back(d.path() / "results.json");
    // The latest link stands in where the runs were not kept (a copy of results.json instead of a link).
    if (files.empty() && fs::is_regular_file(lesson.results_dir() / "results.json", ec))
        files.push_back(lesson.results_dir() / "results.json");
    std::sort(files.begin(), files.end());  // run folders are named by their UTC start time
    std::vector<Run> out;
    for (auto it = files.rbegin(); it != files.rend(); ++it) {
        Run r;
        try {
            r.results = util::load_json(*it);
        } catch (const util::UserError& e) {
            if (it == files.rbegin()) {
                *unreadable = e.what();
                if (!unreadable->empty() && unreadable->back() == '.') unreadable->pop_back();
            }
            continue;
        }
        r.time = fs::last_write_time(*it, ec);
        const bool graded_here = r.results.is_object() && r.results.contains("extra_data") &&
                                 r.results["extra_data"].value("submission", std::string()) == "exercises/" + lesson.id;
        if (graded_here) out.push_back(std::move(r));
    }
    return out;
}

}  // namespace

std::vector<ExerciseStatus> lesson_status(const lesson::Lesson& lesson) {
    const nlohmann::json hints = hints_used(lesson.root, lesson.id);
    std::string unreadable;  // why the newest grade's results could not be read: said on every exercise's line
    const std::vector<Run> runs = graded_runs(lesson, &unreadable);
    std::error_code ec;

    std::vector<ExerciseStatus> out;
    for (const auto& ex : lesson.exercises) {
        ExerciseStatus s;
        s.name = ex.name;
        if (hints.contains(ex.name) && hints[ex.name].is_object())
            for (const auto& [blank, level] : hints[ex.name].items())
                if (level.is_number()) s.hint_levels += level.get<int>();
        const fs::path file = lesson.exercises_dir() / ex.file();
        if (!fs::exists(file, ec)) {
            s.state = "missing";
            s.detail = util::display_path(file, lesson.root) + " does not exist (`make reset-" + lesson.number +
                       " EX=" + ex.name + "` restores it)";
            out.push_back(s);
            continue;
        }
        std::size_t filled = 0, total = ex.blanks.size();
        bool bug_hunt = false;  // every blank a fix region: they are "changed", not "filled"
        bool edited_outside = false;
        std::string refused;  // the fill policy's veto, one sentence
        try {
            std::string text = util::read_text(file);
            if (const auto pristine = lesson::pristine_starter(lesson, ex)) {
                review::EditCheck check = review::edit_check_text(*pristine, text, ex.file(), ex.blank_ids());
                edited_outside = !check.ok && !check.refused;
                if (check.refused) refused = check.reason;
                total = check.ok ? check.fills.size() : total;
                // A bug hunt's region counts once the student has changed it.
                for (const auto& f : check.fills) filled += f.unfilled || f.unchanged ? 0 : 1;
                bug_hunt = !check.fills.empty() && std::all_of(check.fills.begin(), check.fills.end(),
                                                               [](const auto& f) { return f.fix_region; });
            }
        } catch (const util::UserError& e) {
            s.state = "in progress";
            s.detail = e.what();
            if (!s.detail.empty() && s.detail.back() == '.') s.detail.pop_back();
            out.push_back(s);
            continue;
        }
        s.state = filled == 0 && !edited_outside ? "untouched" : "in progress";
        s.detail = edited_outside     ? "code outside the blanks was changed (a veto)"
                   : !refused.empty() ? refused
                                      : std::to_string(filled) + " of " + std::to_string(total) +
                                            (bug_hunt ? " fix regions changed" : " blanks filled");
        if (!refused.empty() && s.state == "untouched") s.state = "in progress";
        const nlohmann::json::json_pointer ptr("/extra_data/exercises/" + ex.name);
        const auto last = std::find_if(runs.begin(), runs.end(), [&](const Run& r) { return r.results.contains(ptr); });
        if (last != runs.end()) {
            const auto& r = last->results[ptr];
            const std::string backend = last->results["extra_data"].value("backend", std::string("?"));
            const bool changed_since = fs::last_write_time(file, ec) > last->time;
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
            } else if (r.value("tests_total", 0) == 0) {
                // No test ran (blanks not filled, did not compile, missing): "0 of 0 tests passed" would say nothing.
                std::string why;
                for (const auto& reason : r.value("reasons", nlohmann::json::array()))
                    if (reason.is_string()) why += (why.empty() ? "" : ", ") + reason.get<std::string>();
                s.detail += "; the last grade (" + backend + ") ran no test" + (why.empty() ? "" : ": " + why);
            } else {
                s.detail += "; " + std::to_string(r.value("tests_passed", 0)) + " of " +
                            std::to_string(r.value("tests_total", 0)) + " tests passed at the last grade (" + backend +
                            ")";
            }
        }
        if (!unreadable.empty()) s.detail += "; the last grade is unknown (" + unreadable + ")";
        out.push_back(s);
    }
    // The written answers are scored only by a grade of the whole lesson (no EX=): their last score is in the
    // newest run that holds one of their provisional items.
    const auto scored = std::find_if(runs.begin(), runs.end(), [](const Run& r) {
        if (!r.results.contains("tests") || !r.results["tests"].is_array()) return false;
        for (const auto& t : r.results["tests"])
            if (t.contains("tags") && t["tags"].is_array())
                for (const auto& tag : t["tags"])
                    if (tag.is_string() && tag.get<std::string>() == "provisional") return true;
        return false;
    });
    if (auto a = answers_status(lesson, scored == runs.end() ? nlohmann::json() : scored->results,
                                scored == runs.end() ? fs::file_time_type{} : scored->time))
        out.push_back(*a);
    return out;
}

std::string format_status(const lesson::Lesson& lesson, const std::vector<ExerciseStatus>& rows) {
    std::size_t w = 8;
    for (const auto& r : rows) w = std::max(w, r.name.size());
    std::string s = "Lesson " + lesson.id + "\n";
    for (const auto& r : rows) {
        std::string name = r.name + std::string(w - r.name.size(), ' ');
        std::string state = r.state + std::string(r.state.size() < 12 ? 12 - r.state.size() : 0, ' ');
        s += "  " + name + "  " + state + "  " + r.detail;
        if (r.hint_levels > 0)
            s += "; " + std::to_string(r.hint_levels) + " hint level" + (r.hint_levels == 1 ? "" : "s") + " used";
        s += "\n";
    }
    s += "Grade with `make grade-" + lesson.number + "`; a hint with `make hint-" + lesson.number + " EX=<name>`.\n";
    return s;
}

}  // namespace workbook::tools
