#include "tools/restore.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <system_error>
#include <tuple>

#include "util/errors.hpp"
#include "util/util.hpp"
#include "util/files.hpp"

namespace fs = std::filesystem;

namespace workbook::tools {
namespace {

// "20261201-093512-10" after "20261201-093512-2" after "20261201-093512": the stamp, then the counter as a number.
std::tuple<std::string, long> order_key(const std::string& stamp) {
    const std::size_t dash = stamp.find('-', stamp.find('-') + 1);
    if (dash == std::string::npos) return {stamp, 1};
    return {stamp.substr(0, dash), std::strtol(stamp.c_str() + dash + 1, nullptr, 10)};
}

}  // namespace

std::vector<Backup> backups_of(const lesson::Lesson& lesson, const std::string& exercise) {
    const lesson::Exercise& ex = lesson.exercise(exercise);
    const fs::path rel = util::display_path(lesson.exercises_dir() / ex.file(), lesson.root);
    std::vector<Backup> out;
    std::error_code ec;
    for (const auto& d : fs::directory_iterator(lesson.root / ".workbook" / "backups", ec)) {
        const fs::path f = d.path() / rel;
        if (d.is_directory(ec) && fs::is_regular_file(f, ec)) out.push_back({d.path().filename().string(), f});
    }
    std::sort(out.begin(), out.end(),
              [](const Backup& a, const Backup& b) { return order_key(a.stamp) < order_key(b.stamp); });
    return out;
}

RestoreResult restore_exercise(const lesson::Lesson& lesson, const std::string& exercise, const std::string& stamp) {
    const lesson::Exercise& ex = lesson.exercise(exercise);
    const std::vector<Backup> all = backups_of(lesson, exercise);
    RestoreResult r;
    r.file = lesson.exercises_dir() / ex.file();
    const std::string shown = util::display_path(r.file, lesson.root);
    if (all.empty())
        throw util::UserError("There is no backup of " + shown + " in .workbook/backups/ (`make reset-" +
                              lesson.number + "` saves one before it restores the starter); nothing was changed.");
    const Backup* chosen = &all.back();
    if (!stamp.empty()) {
        auto it = std::find_if(all.begin(), all.end(), [&](const Backup& b) { return b.stamp == stamp; });
        if (it == all.end()) {
            std::string list;
            for (const auto& b : all) list += (list.empty() ? "" : ", ") + b.stamp;
            throw util::UserError("No backup '" + stamp + "' of " + shown +
                                  "; the backups are (oldest first): " + list + ". Nothing was changed.");
        }
        chosen = &*it;
    }
    r.from = chosen->stamp;
    const std::string text = util::read_file(chosen->file).value_or("");
    std::error_code ec;
    if (fs::exists(r.file, ec)) {
        if (!fs::is_regular_file(r.file, ec))
            throw util::UserError(shown + " is not a regular file; nothing was changed.");
        if (util::read_file(r.file).value_or("") == text) {
            r.message = shown + " already is the backup " + r.from + "; nothing was changed.";
            return r;
        }
        r.saved = util::backup_file(lesson.root, util::new_backup_dir(lesson.root), r.file);
    }
    util::write_text(r.file, text);
    const std::string restored = shown + " from the backup " + r.from + ".";
    r.message = r.saved.empty() ? "Restored " + restored
                                : "Saved your current version to " + util::display_path(r.saved, lesson.root) +
                                      ", then restored " + restored;
    if (all.size() > 1) {
        r.message += " Other backups:";
        for (const auto& b : all)
            if (b.stamp != r.from) r.message += " " + b.stamp;
        r.message += " (`make restore-" + lesson.number + " EX=" + exercise + " BACKUP=<one of them>`).";
    }
    return r;
}

}  // namespace workbook::tools
