#include "tools/class_child.hpp"

#include <cmath>

#include "util/process.hpp"
#include "util/util.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace workbook::tools {
namespace {

// The child's own sentence ("workbook: …") when it stopped with a usage error, without the private folder's path.
std::string child_error(const std::string& err, const fs::path& private_dir) {
    std::string last;
    for (const auto& l : util::split_lines(err))
        if (l.rfind("workbook: ", 0) == 0) last = l.substr(10);
    util::erase_all(last, private_dir.string() + "/");
    return util::trim_lines(last, 1);
}

}  // namespace

GradeOneFn grade_in_child(ChildGradeOptions o) {
    return [o](const fs::path& submission, const fs::path& work_dir, const std::string& label) {
        util::ProcessSpec spec;
        spec.argv = o.command;
        for (const std::string& a : {std::string("--submission"), submission.string(), std::string("--work-dir"),
                                     work_dir.string(), std::string("--submission-label"), label,
                                     std::string("--backend"), o.backend, std::string("--json-out"), std::string("-")})
            spec.argv.push_back(a);
        spec.cwd = submission.parent_path();
        spec.env = o.env;
        spec.timeout_s = o.timeout_s;
        spec.capture_limit = 64u * 1024 * 1024;  // results.json whole: a cut one would not parse
        const util::ProcessResult r = util::run_process(spec);
        OneGrade g;
        g.log = r.err;
        const fs::path private_dir = submission.parent_path();
        if (!r.started) {
            g.error = "the grader could not be started: " + r.start_error;
        } else if (r.timed_out) {
            g.error = "grading took longer than " + std::to_string(static_cast<long>(std::lround(o.timeout_s))) +
                      " s and was stopped";
        } else if (r.signal) {
            g.error = "the grader crashed (" + util::signal_name(r.signal) + ")";
        } else if (r.exit_code == 0 || r.exit_code == 1) {
            try {
                g.results = json::parse(r.out);
                if (!g.results.is_object() || !g.results.contains("score")) throw std::runtime_error("no score");
            } catch (const std::exception&) {
                g.results = nullptr;
                g.error =
                    "the grader's output was not a results.json (exit status " + std::to_string(r.exit_code) + ")";
            }
        } else {
            const std::string why = child_error(r.err, private_dir);
            g.error = why.empty() ? "the grader stopped with exit status " + std::to_string(r.exit_code) : why;
        }
        return g;
    };
}

}  // namespace workbook::tools
