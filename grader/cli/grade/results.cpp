#include "results.hpp"

#include "clean.hpp"
#include "util/util.hpp"

namespace workbook::grade {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string group_label(const std::string& g) {
    return g == "normal" ? "normal inputs" : g == "edge" ? "edge inputs" : g;
}

// The vetoes of one exercise, as the report states them.
std::string veto_text(const Run& run, const std::string& exercise) {
    std::vector<std::string> reasons;
    for (const auto& v : run.vetoes)
        if (v.exercise == exercise) reasons.push_back(v.reason);
    return util::join(reasons, " ");
}

}  // namespace

json results_json(const Run& unclean, const std::string& markdown_report) {
    const Run run = clean_copy(unclean);
    json tests = json::array();
    int ex_index = 0;
    json per_exercise = json::object();
    for (const auto& ex : run.exercises) {
        ++ex_index;
        int t_index = 0;
        for (const auto& g : ex.groups) {
            if (g.state == "run") {
                for (const auto& t : ex.tests) {
                    if (t.test.group != g.name) continue;
                    json jt;
                    jt["name"] = t.test.name;
                    jt["number"] = std::to_string(ex_index) + "." + std::to_string(++t_index);
                    jt["max_score"] = g.total ? std::round(g.points / g.total * 10000.0) / 10000.0 : 0.0;
                    // `status` is what the test found; a veto sets the score to 0 whatever it found.
                    jt["score"] = t.passed && !g.vetoed ? jt["max_score"].get<double>() : 0.0;
                    jt["status"] = t.passed ? "passed" : "failed";
                    std::string out = t.passed ? "" : t.message;
                    if (!t.output.empty()) out += "\n" + t.output;
                    if (g.vetoed)
                        out = "Vetoed: 0 points for this exercise's tests" +
                              std::string(t.passed ? " (this test passed)" : "") + ". " +
                              veto_text(run, ex.info->name) + (out.empty() ? "" : "\n" + out);
                    jt["output"] = out;
                    jt["output_format"] = "text";
                    json tags = json::array({ex.info->name, g.name});
                    if (g.vetoed) tags.push_back("vetoed");
                    jt["tags"] = tags;
                    jt["visibility"] = "visible";
                    tests.push_back(jt);
                }
            } else {
                // No test list (static review, unfilled blanks, compile error): the group stands as one failed entry
                // worth its points, so nothing unexecuted is ever counted as earned.
                json jt;
                jt["name"] = ex.info->name + ": " + group_label(g.name) + " (" + g.note + ")";
                jt["number"] = std::to_string(ex_index) + "." + std::to_string(++t_index);
                jt["score"] = 0.0;
                jt["max_score"] = g.points;
                jt["status"] = "failed";
                std::string out = g.note;
                if (!ex.missing.empty())
                    out += "\nThis exercise was not graded: 0 points. The other files were graded.";
                else if (!ex.unfilled_message.empty()) out += "\n" + ex.unfilled_message;
                else if (ex.attempted_build && !ex.build.ok) out += "\n" + ex.build.message;
                else if (!ex.list_error.empty()) out += "\n" + ex.list_error;
                jt["output"] = out;
                jt["output_format"] = "text";
                json tags = json::array({ex.info->name, g.name});
                if (g.state == "pending") tags.push_back("pending");
                if (!ex.missing.empty()) tags.push_back("missing");
                if (g.vetoed) tags.push_back("vetoed");
                jt["tags"] = tags;
                jt["visibility"] = "visible";
                tests.push_back(jt);
            }
        }
        int passed = 0, total = 0;
        for (const auto& g : ex.groups) {
            passed += g.passed;
            total += g.total;
        }
        json groups = json::object();
        for (const auto& g : ex.groups)
            groups[g.name] = {{"score", g.earned}, {"max_score", g.points}, {"passed", g.passed},
                              {"total", g.total},  {"state", g.state},      {"vetoed", g.vetoed}};
        per_exercise[ex.info->name] = {{"score", ex.earned},
                                       {"max_score", ex.max},
                                       {"core", ex.info->core},
                                       {"tests_passed", passed},
                                       {"tests_total", total},
                                       {"all_passed", ex.all_passed},
                                       {"vetoed", ex.vetoed},
                                       {"missing", ex.missing.empty() ? json(nullptr) : json(ex.missing)},
                                       {"reasons", ex.reasons},
                                       {"groups", groups},
                                       {"blanks_unfilled", ex.unfilled},
                                       {"compiled", ex.attempted_build ? json(ex.build.ok) : json(nullptr)},
                                       {"backend", backend_name(ex.backend)},
                                       {"content_sha256", ex.content_hash},
                                       {"gpu_verification", ex.gpu_verified ? "done" : "pending"}};
    }
    int w_index = 0;
    json written = json::object();
    for (const auto& w : run.written) {
        written[w.id] = {{"score", w.score},
                         {"max_score", w.max_score},
                         {"group", w.group},
                         {"exercise", w.exercise},
                         {"provisional", true}};
        json jt;
        jt["name"] = w.id + (w.group == "explanation" ? " — explanation of the implementation" : "") + " (provisional)";
        jt["number"] = "W." + std::to_string(++w_index);
        jt["score"] = w.score;
        jt["max_score"] = w.max_score;
        jt["status"] = w.score + 1e-9 >= w.max_score && w.max_score > 0 ? "passed" : "failed";
        jt["output"] =
            w.feedback + "\n(Provisional: checked against a rubric of concepts until an instructor confirms.)";
        jt["output_format"] = "text";
        jt["tags"] = json::array({w.exercise, w.group, "provisional"});
        jt["visibility"] = "visible";
        tests.push_back(jt);
    }
    json vetoes = json::array();
    for (const auto& v : run.vetoes)
        vetoes.push_back({{"exercise", v.exercise}, {"reason", v.reason}, {"diff", v.diff}});

    json r;
    r["score"] = run.total_score;
    r["max_score"] = run.total_max;
    r["execution_time"] = std::round(run.seconds * 10.0) / 10.0;
    r["output"] = markdown_report;
    r["output_format"] = "md";
    r["visibility"] = "visible";
    r["stdout_visibility"] = "hidden";
    const json& hints = run.hints_used;
    r["extra_data"] = {
        {"lesson", run.lesson.id},
        {"backend", backend_name(run.backend)},
        {"ran_on", backend_description(run.backend, run.gpu_name)},
        {"passed", run.passed},
        {"verdict", run.verdict},
        {"vetoes", vetoes},
        {"gpu_verification", run.gpu_verification_done ? "done" : "pending"},
        {"sandbox", run.sandbox},
        {"sanitizer", run.sanitizer},
        {"seed", run.seed},
        {"replay", "make grade-" + run.lesson.number + " SEED=" + std::to_string(run.seed) +
                       (run.backend == Backend::static_only ? "" : " BACKEND=" + backend_name(run.backend))},
        {"submission", run.submission_label},
        {"exercise", run.only_exercise.empty() ? json(nullptr) : json(run.only_exercise)},
        {"core", {{"score", run.core_score}, {"max_score", run.core_max}, {"min_score", run.lesson.min_score}}},
        {"exercises", per_exercise},
        {"written", written},
        {"hints_used", hints},
        {"reasons", run.reasons},
        {"answers_missing", run.answers_missing.empty() ? json(nullptr) : json(run.answers_missing)},
        {"warnings", run.warnings},
        {"notes", run.notes}};
    r["tests"] = tests;
    // Bandwidth the hidden tests measured on a GPU: advice, never points (the worker took the times). Also Gradescope's
    // leaderboard, which shows each student's figure beside the class's.
    json performance = json::array(), leaderboard = json::array();
    for (const auto& ex : run.exercises)
        for (const auto& t : ex.tests)
            for (const auto& m : t.measurements) {
                json p = m;
                p["exercise"] = ex.info->name;
                p["test"] = t.test.name;
                performance.push_back(p);
                if (run.backend == Backend::gpu && m.value("measured", false) && m.contains("kernel_tb_per_s"))
                    leaderboard.push_back({{"name", ex.info->name + " " + m.value("dtype", std::string()) + " " +
                                                        m.value("shape", std::string()) + " (TB/s)"},
                                           {"value", std::round(m["kernel_tb_per_s"].get<double>() * 1000) / 1000},
                                           {"order", "desc"}});
            }
    r["extra_data"]["performance"] = performance;
    if (!leaderboard.empty()) r["leaderboard"] = leaderboard;
    clean_json(r);  // the markdown report and the hints file included
    return r;
}

}  // namespace workbook::grade
