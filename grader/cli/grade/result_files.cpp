#include "result_files.hpp"

#include <algorithm>
#include <vector>

#include <unistd.h>

#include "util/util.hpp"

namespace workbook::grade {

namespace fs = std::filesystem;

namespace {
constexpr std::size_t kKeptRuns = 20;
}

fs::path new_run_dir(const fs::path& results_dir) {
    std::string stamp = util::iso_time_now();
    for (auto& c : stamp)
        if (c == ':') c = '-';
    const std::string base = stamp + "-" + std::to_string(::getpid());
    fs::path dir = results_dir / "runs" / base;
    std::error_code ec;
    for (int k = 2; fs::exists(dir, ec); ++k) dir = results_dir / "runs" / (base + "-" + std::to_string(k));
    return dir;
}

void publish_latest(const fs::path& results_dir, const fs::path& run_file) {
    std::error_code ec;
    const fs::path link = results_dir / "results.json";
    const fs::path tmp = results_dir / (".results.json." + util::random_hex(6));
    fs::create_symlink(run_file.lexically_relative(results_dir), tmp, ec);
    if (!ec) fs::rename(tmp, link, ec);
    if (ec) {
        fs::remove(tmp, ec);
        util::write_file_atomic(link, util::read_file(run_file).value_or(""));
    }
    std::vector<fs::path> finished;
    for (const auto& d : fs::directory_iterator(results_dir / "runs", ec))
        if (fs::exists(d.path() / "results.json", ec)) finished.push_back(d.path());
    std::sort(finished.begin(), finished.end());  // names start with the time
    for (std::size_t i = 0; i + kKeptRuns < finished.size(); ++i)
        if (finished[i] != run_file.parent_path()) fs::remove_all(finished[i], ec);
}

// util::display_path resolves links; a link is shown by its own name, so this one stays lexical.
std::string shown_link(const fs::path& p, const fs::path& root) {
    const fs::path rel = p.lexically_relative(root);
    return rel.empty() || rel.native().rfind("..", 0) == 0 ? p.string() : rel.string();
}

}  // namespace workbook::grade
