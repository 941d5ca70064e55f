#include "tools/report.hpp"

#include <algorithm>
#include <ctime>
#include <system_error>

#include "util/util.hpp"
#include "util/errors.hpp"
#include "util/util.hpp"
#include "util/files.hpp"
#include "tools/hint.hpp"
#include "tools/state.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace workbook::tools {
namespace {

std::string num(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", x);
    return buf;
}

// A fence longer than any backtick run inside, so student text can never close it early.
std::string fenced(const std::string& text, const std::string& lang) {
    std::size_t longest = 0, run = 0;
    for (char c : text) {
        run = c == '`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    std::string fence(std::max<std::size_t>(3, longest + 1), '`');
    std::string body = text;
    if (!body.empty() && body.back() != '\n') body += '\n';
    return fence + lang + "\n" + body + fence + "\n";
}

std::string cell(std::string s) {
    for (auto& c : s)
        if (c == '\n' || c == '|') c = ' ';
    return s;
}

// A table cell that keeps its lines: the written feedback is one "Found:" or "Missing:" line per concept.
std::string lines_cell(const std::string& s) {
    std::string out;
    for (char c : util::trim(s))
        out += c == '\n' ? std::string("<br>") : c == '|' ? std::string(" ") : std::string(1, c);
    return out;
}

bool has_tag(const json& test, const std::string& tag) {
    if (!test.contains("tags") || !test["tags"].is_array()) return false;
    for (const auto& t : test["tags"])
        if (t.is_string() && t.get<std::string>() == tag) return true;
    return false;
}

std::string now_utc() {
    std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", &tm);
    return buf;
}

std::string hints_line(const json& hints, const std::string& exercise) {
    if (!hints.contains(exercise) || !hints[exercise].is_object() || hints[exercise].empty()) return "none";
    std::string s;
    for (const auto& [blank, level] : hints[exercise].items()) {
        if (!level.is_number()) continue;
        int l = std::min(std::max(level.get<int>(), 0), kHintLevels);
        s += (s.empty() ? "" : ", ") + std::string("`") + blank + "` up to level " + std::to_string(l) +
             (l > 0 ? std::string(" (") + kHintLevelNames[l - 1] + ")" : "");
    }
    return s.empty() ? "none" : s;
}

bool contains(const std::vector<std::string>& v, const std::string& x) {
    return std::find(v.begin(), v.end(), x) != v.end();
}

}  // namespace

std::vector<std::string> changed_since_grade(const lesson::Lesson& lesson, const fs::path& submission,
                                             const json& results) {
    std::vector<std::string> out;
    if (!results.is_object() || !results.contains("extra_data") || !results["extra_data"].is_object()) return out;
    const json& extra = results["extra_data"];
    const std::string& answers_file = lesson.answers_file;
    const std::string graded_sub = extra.value("submission", std::string());
    const bool same_submission = graded_sub.empty() || graded_sub == util::display_path(submission, lesson.root);
    auto differs = [&](const std::string& file, const json& hash) {
        if (!same_submission) return true;
        if (!hash.is_string()) return false;  // not graded in that run (EX=…), or an older results.json
        const auto text = util::read_file(submission / file);
        return !text || util::sha256_hex(*text) != hash.get<std::string>();
    };
    for (const auto& ex : lesson.exercises) {
        const json::json_pointer ptr("/exercises/" + ex.name + "/content_sha256");
        if (differs(ex.file(), extra.contains(ptr) ? extra[ptr] : json())) out.push_back(ex.file());
    }
    if (differs(answers_file, extra.value("answers_sha256", json()))) out.push_back(answers_file);
    return out;
}

std::string render_report(const lesson::Lesson& lesson, const fs::path& submission, const json& results,
                          const json& hints) {
    const bool graded = results.is_object() && results.contains("extra_data");
    const json extra = graded ? results["extra_data"] : json::object();
    const std::vector<std::string> changed = changed_since_grade(lesson, submission, results);
    std::string md = "# Submission report: lesson " + lesson.id + "\n\n";
    if (!changed.empty()) {
        std::string names;
        for (const auto& c : changed) names += (names.empty() ? "`" : ", `") + c + "`";
        md += "> **Changed since the last grade: " + names +
              ".** Their results are left out of this report (they were "
              "for an earlier version). Run `make grade-" +
              lesson.number + "`, then `make report-" + lesson.number + "` again.\n\n";
    }
    md += "- Submission: `" + util::display_path(submission, lesson.root) + "`\n";
    md += "- Report written: " + now_utc() + "\n";
    if (graded) {
        md += "- Where the tests ran: **" + extra.value("ran_on", extra.value("backend", std::string("unknown"))) +
              "** (backend `" + extra.value("backend", std::string("?")) + "`)\n";
        // An exercise whose manifest says `runs_on_emulator` ran on the emulator inside a GPU grade.
        if (extra.contains("exercises") && extra["exercises"].is_object())
            for (const auto& [name, ex] : extra["exercises"].items())
                if (ex.is_object() && ex.contains("backend") && ex["backend"].is_string() &&
                    ex["backend"] != extra.value("backend", std::string()) && ex.value("tests_total", 0) > 0)
                    md += "- `" + name + "` ran on backend `" + ex["backend"].get<std::string>() +
                          "` (its manifest names the reason)\n";
        const std::string graded_sub = extra.value("submission", std::string());
        if (!graded_sub.empty() && graded_sub != util::display_path(submission, lesson.root))
            md += "- Note: the last grade run was for `" + graded_sub +
                  "`, not this submission; grade it to see its own results.\n";
        md += "- GPU verification: " + extra.value("gpu_verification", std::string("pending")) + "\n";
        if (extra.contains("seed"))
            md += "- Seed: " + extra["seed"].dump() + " (replay: `" + extra.value("replay", std::string()) + "`)\n";
        // The pass rule is the core rubric's; the extensions' points come on top, so the total alone ("30 / 30" for a
        // lesson "worth 10") reads like a different lesson.
        md += "- Score" + std::string(changed.empty() ? "" : " (of the graded version, before the changes)") + ": ";
        const double total = results.value("score", 0.0), total_max = results.value("max_score", 0.0);
        if (extra.contains("core") && extra["core"].is_object()) {
            const double core = extra["core"].value("score", 0.0), core_max = extra["core"].value("max_score", 0.0);
            md += "core rubric " + num(core) + " / " + num(core_max) + " (pass at " +
                  num(extra["core"].value("min_score", 0.0)) + ")";
            if (total_max > core_max) md += "; extensions " + num(total - core) + " / " + num(total_max - core_max);
            md += "; total " + num(total) + " / " + num(total_max);
        } else {
            md += num(total) + " / " + num(total_max);
        }
        md += "\n- Verdict: **" + std::string(extra.value("passed", false) ? "passed" : "not passed") + "**";
        if (extra.contains("verdict") && extra["verdict"].is_string()) md += ": " + extra["verdict"].get<std::string>();
        md += "\n";
        if (extra.contains("vetoes") && extra["vetoes"].is_array() && !extra["vetoes"].empty()) {
            md += "\n## Vetoes\n\n";
            for (const auto& v : extra["vetoes"]) {
                md += "- " +
                      (v.is_object() ? v.value("exercise", std::string()) + ": " + v.value("reason", std::string())
                                     : v.dump()) +
                      "\n";
                if (v.is_object() && !v.value("diff", std::string()).empty())
                    md += "\n" + fenced(v["diff"], "text") + "\n";
            }
        }
    } else {
        md += "- Not graded yet: run `make grade-" + lesson.number + "` first, then `make report-" + lesson.number +
              "` again, so this report can show where the tests ran and their results.\n";
    }
    const json tests = graded && results.contains("tests") ? results["tests"] : json::array();

    for (const auto& ex : lesson.exercises) {
        md += "\n## Exercise `" + ex.name + "` (" + ex.file() + ")\n\n";
        const json::json_pointer ptr("/exercises/" + ex.name);
        if (graded && extra.contains(ptr) && !contains(changed, ex.file())) {
            const auto& e = extra[ptr];
            md += "Points: " + num(e.value("score", 0.0)) + " / " + num(e.value("max_score", 0.0)) +
                  "; tests passed: " + std::to_string(e.value("tests_passed", 0)) + " of " +
                  std::to_string(e.value("tests_total", 0)) + ".\n\n";
        }
        md += "Hints used: " + hints_line(hints, ex.name) + ".\n\n";
        json own = json::array();
        if (contains(changed, ex.file()))
            md += "**Changed since the grade**: the results of the earlier version are left out.\n\n";
        else
            for (const auto& t : tests)
                if (has_tag(t, ex.name) && !has_tag(t, "provisional")) own.push_back(t);
        if (!own.empty()) {
            md += "### Results\n\n| test | group | status | points |\n| --- | --- | --- | --- |\n";
            for (const auto& t : own) {
                std::string group =
                    t["tags"].size() > 1 && t["tags"][1].is_string() ? t["tags"][1].get<std::string>() : "";
                md += "| " + cell(t.value("name", std::string())) + " | " + group + " | " +
                      t.value("status", std::string()) + " | " + num(t.value("score", 0.0)) + " / " +
                      num(t.value("max_score", 0.0)) + " |\n";
            }
            bool any_failed = false;
            for (const auto& t : own) {
                if (t.value("status", std::string()) == "passed") continue;
                if (!any_failed) md += "\n### Failures explained\n\n";
                any_failed = true;
                md += "**" + t.value("name", std::string()) + "**\n\n";
                const std::string out = t.value("output", std::string());
                md += out.empty() ? "(no message)\n\n" : fenced(out, "text") + "\n";
            }
        } else if (graded && !contains(changed, ex.file())) {
            md += "Not graded in the last run.\n\n";
        }
        md += "### Code\n\n";
        // Read as the grader reads a submission: a link or a device is refused, never followed into the report.
        const auto code = util::read_submitted(submission / ex.file(), ex.file());
        md += code.refusal.empty() ? fenced(util::sanitize_text(code.text), "cuda") : "_" + code.refusal + "_\n";
    }

    md += "\n## Written answers\n\n";
    json written = json::array();
    const std::string& answers_name = lesson.answers_file;
    if (contains(changed, answers_name))
        md += "**Changed since the grade**: the provisional scores of the earlier answers are left out.\n\n";
    else
        for (const auto& t : tests)
            if (has_tag(t, "provisional")) written.push_back(t);
    if (!written.empty()) {
        md +=
            "Scores are provisional until an instructor confirms them.\n\n| item | points | feedback |\n| --- | --- | "
            "--- |\n";
        for (const auto& t : written)
            md += "| " + cell(t.value("name", std::string())) + " | " + num(t.value("score", 0.0)) + " / " +
                  num(t.value("max_score", 0.0)) + " | " + lines_cell(t.value("output", std::string())) + " |\n";
        md += "\n";
    }
    const std::string& answers_file = lesson.answers_file;
    if (const auto got = util::read_submitted(submission / answers_file, answers_file); !got.refusal.empty()) {
        md += "_" + got.refusal + "_\n";
    } else {
        const std::string answers = util::sanitize_text(got.text);
        // Headings one level down, so the answers sit under this section.
        std::string shifted, line;
        for (std::size_t i = 0; i <= answers.size(); ++i) {
            if (i == answers.size() || answers[i] == '\n') {
                shifted += (line.rfind("#", 0) == 0 ? "##" + line : line) + (i == answers.size() ? "" : "\n");
                line.clear();
            } else {
                line += answers[i];
            }
        }
        md += shifted + "\n";
    }

    if (graded && results.contains("output") && results["output"].is_string() &&
        !results["output"].get<std::string>().empty()) {
        md += "\n## Grader output\n\n" + fenced(results["output"].get<std::string>(), "text");
    }
    return md;
}

ReportOutcome write_report(const lesson::Lesson& lesson, const ReportInput& in) {
    const fs::path submission = in.submission.empty() ? lesson.exercises_dir() : in.submission;
    std::error_code ec;
    if (!fs::is_directory(submission, ec))
        throw util::UserError("The submission folder " + submission.string() + " does not exist.");
    const fs::path results_path = in.results.empty() ? lesson.results_dir() / "results.json" : in.results;
    json results;
    if (fs::exists(results_path, ec)) results = util::load_json(results_path);
    else if (!in.results.empty()) throw util::UserError("The results file " + in.results.string() + " does not exist.");
    const fs::path out = in.out.empty() ? lesson.results_dir() / "report.md" : in.out;
    util::write_text(out, render_report(lesson, submission, results, hints_used(lesson.root, lesson.id)));
    return {out, changed_since_grade(lesson, submission, results), results.is_object()};
}

}  // namespace workbook::tools
