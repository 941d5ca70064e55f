#include "sanitize.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <thread>

#include "util/process.hpp"
#include "util/util.hpp"

namespace workbook::grade {

using json = nlohmann::json;

const std::vector<std::string> kSanitizerTools = {"memcheck", "racecheck", "synccheck", "initcheck"};

namespace {

// One bug reported by many threads of many tests is one finding: the same first line at the same file:line.
std::string finding_key(const std::string& finding) {
    const std::string first = finding.substr(0, finding.find('\n'));
    const auto in = finding.find(" in ", first.size());
    const auto end = in == std::string::npos ? in : finding.find('\n', in);
    // The first line names sizes and kinds; addresses and threads (which differ from test to test) follow it.
    return first + (in == std::string::npos ? std::string() : finding.substr(in, end - in));
}

}  // namespace

json run_compute_sanitizer(const std::vector<TestJob>& jobs, std::uint64_t seed, RunLimits limits,
                           const std::string& strip, const std::vector<std::string>& tools) {
    json out = json::object();
    if (jobs.empty()) return out;
    // The tool slows a test by one to two orders of magnitude; the GPU is shared by the tests running at once.
    limits.timeout_s *= 20;
    const unsigned cores = std::max(2u, std::thread::hardware_concurrency());
    limits.parallel = std::max(limits.parallel, static_cast<int>(std::min(8u, cores / 2)));
    for (const auto& tool : kSanitizerTools) {
        if (!tools.empty() && std::find(tools.begin(), tools.end(), tool) == tools.end()) continue;
        if (util::interrupted()) break;  // the caller reports the interrupt, not these runs
        limits.sanitize_tool = tool;
        const auto outcomes = run_tests(jobs, seed, limits);
        std::map<std::string, std::set<std::string>> seen;
        for (const auto& o : outcomes) {
            json& entry = out[o.test.exercise][tool];
            if (!entry.is_object())
                entry = {{"tests", 0},
                         {"tests_with_errors", 0},
                         {"errors", 0},
                         {"findings", json::array()},
                         {"not_run", json::array()}};
            entry["tests"] = entry["tests"].get<int>() + 1;
            const json& s = o.sanitizer;
            if (!s.is_object() || !s.value("started", false) || !s.value("finished", false)) {
                // The tool did not start, or the worker ended before it could sum up (a crash, a time-out).
                std::string why = o.message.empty() ? std::string("compute-sanitizer did not report") : o.message;
                util::erase_all(why, strip);
                if (entry["not_run"].size() < 3)
                    entry["not_run"].push_back(o.test.name + ": " + util::trim_lines(util::sanitize_text(why), 4));
                continue;
            }
            const int errors = s.value("errors", 0);
            if (errors > 0) {
                entry["tests_with_errors"] = entry["tests_with_errors"].get<int>() + 1;
                entry["errors"] = entry["errors"].get<int>() + errors;
            }
            if (s.contains("findings") && s["findings"].is_array())
                for (const auto& f : s["findings"]) {
                    if (!f.is_string()) continue;
                    std::string text = util::sanitize_text(f.get<std::string>());
                    util::erase_all(text, strip);
                    if (seen[o.test.exercise + "/" + tool].insert(finding_key(text)).second &&
                        entry["findings"].size() < 5)
                        entry["findings"].push_back(text);
                }
        }
    }
    return out;
}

std::string sanitizer_report(const json& findings) {
    std::string lines;
    if (!findings.is_object() || findings.empty()) return lines;
    for (const auto& [exercise, tools] : findings.items()) {
        for (const auto& tool : kSanitizerTools) {
            if (!tools.contains(tool)) continue;
            const json& e = tools[tool];
            const int tests = e.value("tests", 0), bad = e.value("tests_with_errors", 0), errors = e.value("errors", 0);
            const int not_run = static_cast<int>(e.value("not_run", json::array()).size());
            std::string head = "  " + exercise + " " + tool + ": ";
            if (errors == 0 && not_run == 0) head += "clean in " + std::to_string(tests) + " tests";
            else if (errors == 0) head += "no error reported; in some tests the tool did not run to its end";
            else
                head += std::to_string(errors) + " error" + (errors == 1 ? "" : "s") + " in " + std::to_string(bad) +
                        " of " + std::to_string(tests) + " tests";
            lines += head + "\n";
            for (const auto& f : e.value("findings", json::array()))
                lines += util::indent(f.get<std::string>(), "      ");
            for (const auto& w : e.value("not_run", json::array()))
                lines += util::indent("not checked: " + w.get<std::string>(), "      ");
        }
    }
    return lines;
}

}  // namespace workbook::grade
