#include "tools/repo_files.hpp"

#include <algorithm>
#include <sstream>
#include <system_error>

#include "review/subprocess.hpp"

namespace fs = std::filesystem;

namespace workbook::tools {

const std::vector<std::string>& instructor_only_paths() {
    static const std::vector<std::string> paths = {"solutions", "tests", ".ci", ".git", ".workbook", "build"};
    return paths;
}

bool is_instructor_only(const fs::path& relative) {
    if (relative.empty()) return false;
    const std::string top = relative.begin()->string();
    for (const auto& p : instructor_only_paths())
        if (top == p) return true;
    if (top.rfind("build-", 0) == 0) return true;
    if (top == "docs" && relative.filename().string().rfind("instructor", 0) == 0) return true;
    // Reference answers are instructor-only wherever they are kept.
    return relative.filename() == "reference-answers.md";
}

std::vector<fs::path> distributable_files(const fs::path& root) {
    std::vector<fs::path> out;
    std::error_code ec;
    if (fs::exists(root / ".git", ec) && !review::which("git").empty()) {
        auto r = review::run_program({"git", "-C", root.string(), "ls-files", "-z", "--cached", "--others",
                                      "--exclude-standard"},
                                     {}, 120);
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
    for (auto it = fs::recursive_directory_iterator(root, ec); it != fs::recursive_directory_iterator(); it.increment(ec)) {
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

}  // namespace workbook::tools
