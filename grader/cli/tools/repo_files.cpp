#include "tools/repo_files.hpp"

#include <algorithm>
#include <sstream>
#include <system_error>

#include <cstdlib>

#include "util/errors.hpp"
#include "util/subprocess.hpp"

namespace fs = std::filesystem;

namespace workbook::tools {

const std::vector<std::string>& instructor_only_paths() {
    static const std::vector<std::string> paths = {"solutions",
                                                   "tests/grading",
                                                   "tests/lesson",
                                                   "tests/review",
                                                   "tests/written",  // its corpus holds answers that score in full
                                                   ".ci",
                                                   ".git",
                                                   ".workbook",
                                                   "build",
                                                   "benchmarks",
                                                   "grader/emulator/tests",
                                                   "docs/grading.md",
                                                   "docs/gpu-runs.md",
                                                   "docs/gpu-runs",
                                                   "docs/adding-a-lesson.md",
                                                   "scripts/gpu-verify.sh",
                                                   "scripts/grading-table.py"};
    return paths;
}

bool is_instructor_only(const fs::path& relative) {
    if (relative.empty()) return false;
    const std::string top = relative.begin()->string();
    const std::string rel = relative.generic_string();
    for (const auto& p : instructor_only_paths())
        if (rel == p || rel.rfind(p + "/", 0) == 0) return true;
    if (top.rfind("build-", 0) == 0) return true;
    if (top == "docs" && relative.filename().string().rfind("instructor", 0) == 0) return true;
    // Reference answers are instructor-only wherever they are kept.
    return relative.filename() == "reference-answers.md";
}

std::vector<fs::path> distributable_files(const fs::path& root) {
    std::vector<fs::path> out;
    std::error_code ec;
    if (fs::exists(root / ".git", ec) && !util::which("git").empty()) {
        auto r = util::run_program(
            {"git", "-C", root.string(), "ls-files", "-z", "--cached", "--others", "--exclude-standard"}, {}, 120);
        if (r.started && r.exit_code == 0) {
            std::size_t start = 0;
            while (start < r.output.size()) {
                std::size_t end = r.output.find('\0', start);
                if (end == std::string::npos) end = r.output.size();
                fs::path rel = r.output.substr(start, end - start);
                start = end + 1;
                // Deleted-but-tracked files are listed by git yet absent; links are not copied.
                if (!rel.empty() && !is_instructor_only(rel) && fs::is_regular_file(fs::symlink_status(root / rel, ec)))
                    out.push_back(rel);
            }
            std::sort(out.begin(), out.end());
            out.erase(std::unique(out.begin(), out.end()), out.end());
            return out;
        }
    }
    for (auto it = fs::recursive_directory_iterator(root, ec); it != fs::recursive_directory_iterator();
         it.increment(ec)) {
        if (ec) break;
        const fs::path rel = it->path().lexically_relative(root);
        if (is_instructor_only(rel)) {
            if (it->is_directory()) it.disable_recursion_pending();
            continue;
        }
        if (it->is_regular_file() && !it->is_symlink()) out.push_back(rel);
    }
    std::sort(out.begin(), out.end());
    return out;
}

fs::path export_committed(const fs::path& root, std::vector<std::string>* uncommitted, std::string* commit) {
    if (util::which("git").empty())
        throw util::UserError("git is not installed; it is needed to export the committed files.");
    auto head =
        util::run_program({"git", "-C", root.string(), "rev-parse", "--verify", "--quiet", "HEAD^{commit}"}, {}, 60);
    if (!head.started || head.exit_code != 0)
        throw util::UserError(root.string() +
                              " is not a git repository with a commit; commit the course first (only "
                              "committed files are exported).");
    if (commit) *commit = head.output.substr(0, head.output.find_first_of("\r\n"));
    if (uncommitted) {
        uncommitted->clear();
        auto st = util::run_program({"git", "-C", root.string(), "status", "--porcelain"}, {}, 120);
        std::size_t start = 0;
        while (st.exit_code == 0 && start < st.output.size()) {
            std::size_t end = st.output.find('\n', start);
            if (end == std::string::npos) end = st.output.size();
            if (end > start) uncommitted->push_back(st.output.substr(start, end - start));
            start = end + 1;
        }
    }
    char tmpl[] = "/tmp/workbook-export-XXXXXX";
    if (!mkdtemp(tmpl)) throw util::UserError("Cannot create a temporary folder for the export.");
    const fs::path dir = tmpl;
    // tar, not a second archive reader: it is on every machine that has git.
    auto r = util::run_program(
        {"sh", "-c", "git -C \"$1\" archive --format=tar HEAD | tar -x -C \"$2\"", "sh", root.string(), dir.string()},
        {}, 300);
    if (!r.started || r.exit_code != 0) {
        std::error_code ec;
        fs::remove_all(dir, ec);
        throw util::UserError("git archive HEAD failed: " + r.output);
    }
    return dir;
}

}  // namespace workbook::tools
