#include "tools/watch.hpp"

#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <system_error>
#include <thread>

namespace fs = std::filesystem;

namespace workbook::tools {

std::size_t fingerprint(const std::vector<fs::path>& files) {
    std::size_t h = 0;
    auto mix = [&h](std::size_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); };
    for (const auto& f : files) {
        std::error_code ec;
        mix(std::hash<std::string>{}(f.string()));
        if (!fs::exists(f, ec)) {
            mix(1);
            continue;
        }
        mix(static_cast<std::size_t>(fs::file_size(f, ec)));
        mix(static_cast<std::size_t>(fs::last_write_time(f, ec).time_since_epoch().count()));
        std::ifstream in(f, std::ios::binary);
        std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        mix(std::hash<std::string>{}(content));
    }
    return h;
}

int watch(const WatchOptions& opt, std::ostream& out) {
    int grades = 0;
    auto run = [&] {
        ++grades;
        opt.grade();
        out << "\nWatching " << opt.files.size() << " file" << (opt.files.size() == 1 ? "" : "s")
            << " for changes (Ctrl-C to stop)...\n"
            << std::flush;
    };
    std::size_t last = fingerprint(opt.files);
    if (opt.grade_at_start) run();
    auto quiet_since = std::chrono::steady_clock::now();
    bool noticed = false;
    while (opt.keep_going()) {
        std::this_thread::sleep_for(opt.poll);
        const std::size_t now = fingerprint(opt.files);
        if (now != last) {
            last = now;
            // Editors often save in several writes; wait for the file to settle before grading it.
            std::this_thread::sleep_for(opt.poll / 4);
            last = fingerprint(opt.files);
            run();
            quiet_since = std::chrono::steady_clock::now();
            noticed = false;
            continue;
        }
        if (!noticed && std::chrono::steady_clock::now() - quiet_since >= opt.quiet_notice) {
            noticed = true;
            out << "No change seen for " << opt.quiet_notice.count()
                << " s. If you did save, your editor may be writing elsewhere or your file system may not report "
                   "changes: run `"
                << opt.manual_command << "` by hand.\n"
                << std::flush;
        }
    }
    return grades;
}

}  // namespace workbook::tools
