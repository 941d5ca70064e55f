#include "score.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "intake.hpp"
#include "util/util.hpp"

namespace workbook::grade {

double round2(double x) { return std::round(x * 100.0) / 100.0; }

std::string util_first_line(const std::string& s);

namespace {

std::string points_text(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", round2(x));
    return buf;
}

// What happened to a failed test, in a word, from the words the runner and the judge use for it ("timed out after
// 30 s", "the submitted code crashed (SIGSEGV …)", "… ended the program …"); empty for a wrong result.
std::string failure_kind(const TestOutcome& t) {
    const std::string m = util_first_line(t.message);
    auto has = [&](const char* w) { return m.find(w) != std::string::npos; };
    if (has("timed out")) return "timed out";
    if (has("crashed (")) return "crashed";
    if (has("used more than") || has("memory limit")) return "memory limit";
    if (has("ended the program") || has("without reporting a result") || has("before reporting a result") ||
        has("without a valid result"))
        return "ended early";
    return {};
}

std::vector<std::string> exercise_reasons(const ExerciseResult& ex, const std::vector<Veto>& vetoes, Backend backend) {
    std::vector<std::string> r;
    if (!ex.missing.empty()) {
        r.push_back(short_refusal(ex.missing));
        return r;
    }
    if (!ex.unfilled.empty()) r.push_back("blanks not filled");
    else if (ex.attempted_build && !ex.build.ok)
        r.push_back(ex.build.setup_error ? "the grader could not build the tests" : "did not compile");
    else if (!ex.list_error.empty()) r.push_back("tests not run: " + util_first_line(ex.list_error));
    else if (backend == Backend::static_only) r.push_back("pending: static review only");
    int failed = 0, total = 0;
    std::vector<std::string> kinds;
    for (const auto& t : ex.tests) {
        ++total;
        if (t.passed) continue;
        ++failed;
        const std::string k = failure_kind(t);
        if (!k.empty() && std::find(kinds.begin(), kinds.end(), k) == kinds.end()) kinds.push_back(k);
    }
    if (failed)
        r.push_back(std::to_string(failed) + " of " + std::to_string(total) + " tests failed" +
                    (kinds.empty() ? "" : " (" + util::join(kinds, ", ") + ")"));
    for (const auto& v : vetoes)
        if (v.exercise == ex.info->name) {
            // Its first clause: the gradebook shows a few words, the report the whole sentence and the diff.
            std::string reason = v.reason.substr(0, std::min(v.reason.find("; "), v.reason.find(". ")));
            while (!reason.empty() && (reason.back() == '.' || reason.back() == ' ')) reason.pop_back();
            r.push_back("vetoed: " + reason);
        }
    return r;
}

void score_exercise(ExerciseResult& ex, Backend backend, bool vetoed) {
    ex.groups.clear();
    ex.earned = ex.max = 0;
    ex.vetoed = vetoed;
    const bool ran = ex.missing.empty() && ex.attempted_build && ex.build.ok && ex.list_error.empty();
    int failures = 0;
    for (const char* g : {"normal", "edge"}) {
        auto it = ex.info->points.find(g);
        if (it == ex.info->points.end()) continue;
        GroupResult gr;
        gr.name = g;
        gr.points = it->second;
        gr.vetoed = vetoed;
        for (const auto& t : ex.tests)
            if (t.test.group == g) {
                ++gr.total;
                if (t.passed) ++gr.passed;
            }
        if (!ex.missing.empty()) {
            gr.note = "not run: " + short_refusal(ex.missing);
        } else if (backend == Backend::static_only) {
            gr.state = "pending";
            gr.note = "pending GPU verification (static review only: no test executed)";
        } else if (!ex.unfilled.empty()) {
            gr.note = "not run: blanks not filled";
        } else if (ex.fill_refused) {
            gr.note = "not run: the static review refused a fill (see Vetoes)";
        } else if (ex.attempted_build && !ex.build.ok) {
            gr.note =
                ex.build.setup_error ? "not run: the grader could not build the tests" : "not run: did not compile";
        } else if (!ex.list_error.empty()) {
            gr.note = "not run: " + util_first_line(ex.list_error);
        } else if (gr.total == 0) {
            gr.note = "no hidden tests found for this group";
        } else {
            gr.state = "run";
            // A veto costs the group's points whatever the tests found (design.md, "Trust model").
            gr.earned = vetoed ? 0.0 : round2(gr.points * gr.passed / gr.total);
            if (vetoed) gr.note = "vetoed: 0 points whatever the tests found";
        }
        failures += gr.total - gr.passed;
        if (gr.state != "run") ++failures;
        ex.earned += gr.earned;
        ex.max += gr.points;
        ex.groups.push_back(gr);
    }
    ex.earned = round2(ex.earned);
    ex.all_passed = ran && failures == 0 && !ex.tests.empty();
}

}  // namespace

void score_run(Run& run) {
    run.pending = run.backend == Backend::static_only;
    run.reasons.clear();
    // The run's reasons, for one gradebook cell: the missing files together, "static review only" once, then each
    // exercise's own.
    std::vector<std::string> missing;
    for (auto& ex : run.exercises) {
        const bool vetoed = std::any_of(run.vetoes.begin(), run.vetoes.end(),
                                        [&](const Veto& v) { return v.exercise == ex.info->name; });
        score_exercise(ex, run.backend, vetoed);
        ex.reasons = exercise_reasons(ex, run.vetoes, run.backend);
        if (short_refusal(ex.missing) == ex.info->file() + " is missing") missing.push_back(ex.info->file());
    }
    const std::string answers_refusal = short_refusal(run.answers_missing);
    if (answers_refusal == run.lesson.answers_file + " is missing") missing.push_back(run.lesson.answers_file);
    if (!missing.empty()) run.reasons.push_back("missing files: " + util::join(missing, ", "));
    if (run.pending) run.reasons.push_back("static review only: execution points pending");
    for (const auto& ex : run.exercises)
        for (const auto& r : ex.reasons)
            if (short_refusal(ex.missing) != ex.info->file() + " is missing" && r != "pending: static review only")
                run.reasons.push_back(ex.info->name + ": " + r);

    const lesson::Exercise* core = run.lesson.find(run.lesson.core);
    const bool whole_lesson = run.only_exercise.empty() || (core && run.only_exercise == core->name);
    run.core_score = run.core_max = run.total_score = run.total_max = 0;
    bool core_all_passed = false;
    for (const auto& ex : run.exercises) {
        run.total_score += ex.earned;
        run.total_max += ex.max;
        if (core && ex.info == core) {
            run.core_score += ex.earned;
            run.core_max += ex.max;
            core_all_passed = ex.all_passed;
        }
    }
    // The explanation explains code: it counts only when that code passes its hidden tests (issue 14), so a fluent
    // account of a kernel that fails (or never ran) earns nothing until the kernel works.
    for (auto& w : run.written) {
        if (w.group != "explanation" || w.score <= 0) continue;
        const auto ex = std::find_if(run.exercises.begin(), run.exercises.end(),
                                     [&](const ExerciseResult& e) { return e.info->name == w.exercise; });
        if (ex != run.exercises.end() && ex->all_passed) continue;
        w.feedback += "\nNot counted yet: this explanation earns its " + points_text(w.score) + " point(s) once " +
                      w.exercise + " passes all its hidden tests.";
        w.score = 0;
    }
    double written_lost = 0, written_max = 0;
    for (const auto& w : run.written) {
        run.total_score += w.score;
        run.total_max += w.max_score;
        written_lost += w.max_score - w.score;
        written_max += w.max_score;
        if (core && w.exercise == core->name) {
            run.core_score += w.score;
            run.core_max += w.max_score;
        }
    }
    if (!run.answers_missing.empty() && answers_refusal != run.lesson.answers_file + " is missing")
        run.reasons.push_back("written answers: " + answers_refusal);
    else if (run.answers_missing.empty() && written_lost > 1e-9)
        run.reasons.push_back("written answers: " + points_text(written_max - written_lost) + " of " +
                              points_text(written_max) + " points (provisional)");
    run.core_score = round2(run.core_score);
    run.total_score = round2(run.total_score);

    if (run.pending) {
        run.passed = false;
    } else if (whole_lesson) {
        run.passed = core_all_passed && run.core_score + 1e-9 >= run.lesson.min_score && run.vetoes.empty();
    } else {
        // EX=<extension>: that exercise alone, all its tests and no veto.
        run.passed = !run.exercises.empty() && run.exercises.front().all_passed && run.vetoes.empty();
    }
}

std::string util_first_line(const std::string& s) {
    auto p = s.find('\n');
    return p == std::string::npos ? s : s.substr(0, p);
}

}  // namespace workbook::grade
