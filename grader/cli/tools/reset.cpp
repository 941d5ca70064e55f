#include "tools/reset.hpp"

#include <fstream>
#include <iterator>
#include <system_error>

#include "util/errors.hpp"
#include "lesson/sync.hpp"
#include "util/files.hpp"
#include "lesson/markers.hpp"

namespace fs = std::filesystem;

namespace workbook::tools {

ResetResult reset_exercise(const lesson::Lesson& lesson, const std::string& exercise) {
    const lesson::Exercise& ex = lesson.exercise(exercise);
    const std::optional<std::string> pristine = lesson::pristine_starter(lesson, ex);
    if (!pristine)
        throw util::UserError("No starter for '" + exercise + "' was found (" +
                              util::display_path(lesson.pristine_dir() / ex.file(), lesson.root) + " is missing).");
    const std::string& starter = *pristine;
    ResetResult r;
    r.file = lesson.exercises_dir() / ex.file();
    const std::string shown = util::display_path(r.file, lesson.root);
    std::error_code ec;
    if (fs::exists(r.file, ec)) {
        if (!fs::is_regular_file(r.file, ec))
            throw util::UserError(shown + " is not a regular file; nothing was changed.");
        // Compare bytes without read_text's checks: a huge or non-UTF-8 file is exactly what a reset may be for.
        std::string current;
        {
            std::ifstream in(r.file, std::ios::binary);
            current.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        }
        if (current == starter) {
            r.message = shown + " already is the starter; nothing was changed.";
            return r;
        }
        const fs::path dir = util::new_backup_dir(lesson.root);
        r.backup = util::backup_file(lesson.root, dir, r.file);
    }
    util::write_text(r.file, starter);
    r.changed = true;
    r.message = r.backup.empty()
                    ? "Restored the starter " + shown + " (there was no previous file to save)."
                    : "Saved your version to " + util::display_path(r.backup, lesson.root) +
                          ", then restored the starter " + shown + ". To bring your version back: make restore-" +
                          lesson.number + " EX=" + exercise;
    return r;
}

}  // namespace workbook::tools
