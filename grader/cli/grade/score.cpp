#include "score.hpp"

#include <cmath>

namespace workbook::grade {

double round2(double x) { return std::round(x * 100.0) / 100.0; }

std::string util_first_line(const std::string& s);

namespace {

void score_exercise(ExerciseResult& ex, Backend backend) {
    ex.groups.clear();
    ex.earned = ex.max = 0;
    const bool ran = ex.attempted_build && ex.build.ok && ex.list_error.empty();
    int failures = 0;
    for (const char* g : {"normal", "edge"}) {
        auto it = ex.info->points.find(g);
        if (it == ex.info->points.end()) continue;
        GroupResult gr;
        gr.name = g;
        gr.points = it->second;
        for (const auto& t : ex.tests)
            if (t.test.group == g) {
                ++gr.total;
                if (t.passed) ++gr.passed;
            }
        if (backend == Backend::static_only) {
            gr.state = "pending";
            gr.note = "pending GPU verification (static review only: no test executed)";
        } else if (!ex.unfilled.empty()) {
            gr.note = "not run: blanks not filled";
        } else if (ex.fill_refused) {
            gr.note = "not run: the static review refused a fill (see Vetoes)";
        } else if (ex.attempted_build && !ex.build.ok) {
            gr.note = ex.build.setup_error ? "not run: the grader could not build the tests" : "not run: did not compile";
        } else if (!ex.list_error.empty()) {
            gr.note = "not run: " + util_first_line(ex.list_error);
        } else if (gr.total == 0) {
            gr.note = "no hidden tests found for this group";
        } else {
            gr.state = "run";
            gr.earned = round2(gr.points * gr.passed / gr.total);
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
    for (auto& ex : run.exercises) score_exercise(ex, run.backend);

    const ExerciseInfo* core = run.lesson.core_exercise();
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
    for (const auto& w : run.written) {
        run.total_score += w.score;
        run.total_max += w.max_score;
        if (core && w.exercise == core->name) {
            run.core_score += w.score;
            run.core_max += w.max_score;
        }
    }
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
