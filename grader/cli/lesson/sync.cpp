#include "lesson/sync.hpp"

#include <map>
#include <system_error>

#include "util/errors.hpp"
#include "util/files.hpp"
#include "lesson/markers.hpp"

namespace fs = std::filesystem;

namespace workbook::lesson {

using util::backup_file;
using util::display_path;
using util::files_with_ext;
using util::new_backup_dir;
using util::read_text;
using util::UserError;
using util::write_text;
namespace {

std::string list(const std::vector<std::string>& v) {
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
    return s + "]";
}

struct Planned {
    std::string file;     // "rmsnorm.cu"
    std::string starter;  // generated text
};

// Every marked solution turned into its starter, after checking its blanks against lesson.json.
std::vector<Planned> plan(const lesson::Lesson& lesson) {
    std::map<std::string, const lesson::Exercise*> by_file;
    for (const auto& e : lesson.exercises) by_file[e.file()] = &e;
    std::vector<Planned> out;
    std::vector<std::string> errors;
    for (const auto& sol : solution_files(lesson)) {
        const std::string file = sol.filename().string();
        const std::string label = display_path(sol, lesson.root);
        Converted c = make_starter(read_text(sol), label);
        std::vector<std::string> ids;
        for (const auto& b : c.blanks) ids.push_back(b.id);
        auto it = by_file.find(file);
        if (it == by_file.end()) {
            errors.push_back(label + " is not an exercise of " + display_path(lesson.manifest(), lesson.root) + ".");
        } else {
            if (ids != it->second->blank_ids())
                errors.push_back(label + ": blanks " + list(ids) + " do not match lesson.json's " +
                                 list(it->second->blank_ids()) + " for exercise '" + it->second->name + "'.");
            by_file.erase(it);
        }
        out.push_back({file, c.text});
    }
    for (const auto& [file, e] : by_file)
        errors.push_back("lesson.json lists exercise '" + e->name + "' but " +
                         display_path(lesson.solutions_dir() / file, lesson.root) + " does not exist.");
    if (!errors.empty()) {
        std::string msg;
        for (const auto& e : errors) msg += (msg.empty() ? "" : "\n") + e;
        throw UserError(msg);
    }
    return out;
}

bool file_equals(const fs::path& p, const std::string& text) {
    std::error_code ec;
    if (!fs::is_regular_file(p, ec)) return false;
    try {
        return read_text(p) == text;
    } catch (const UserError&) {
        return false;  // a huge or binary file there certainly differs
    }
}

}  // namespace

std::vector<fs::path> solution_files(const lesson::Lesson& lesson) {
    std::error_code ec;
    if (!fs::is_directory(lesson.solutions_dir(), ec))
        throw UserError("The solutions folder " + display_path(lesson.solutions_dir(), lesson.root) +
                        " does not exist (a student edition has none; sync runs on the instructor's repository).");
    return files_with_ext(lesson.solutions_dir(), ".cu");
}

SyncReport sync_lesson(const lesson::Lesson& lesson, bool check) {
    const std::vector<Planned> planned = plan(lesson);
    SyncReport r;
    if (check) {
        for (const auto& pl : planned) {
            const fs::path dest = lesson.exercises_dir() / pl.file;
            if (!fs::exists(dest)) r.problems.push_back(display_path(dest, lesson.root) + " is missing.");
            else if (!file_equals(dest, pl.starter))
                r.problems.push_back(display_path(dest, lesson.root) + " differs from the starter made from " +
                                     display_path(lesson.solutions_dir() / pl.file, lesson.root) + ".");
        }
        // A stale starter left behind after its solution was removed would still be handed to students.
        for (const auto& f : files_with_ext(lesson.exercises_dir(), ".cu")) {
            bool known = false;
            for (const auto& pl : planned) known |= pl.file == f.filename().string();
            if (!known)
                r.problems.push_back(display_path(f, lesson.root) + " has no solution in " +
                                     display_path(lesson.solutions_dir(), lesson.root) + ".");
        }
        r.in_sync = r.problems.empty();
        return r;
    }
    for (const auto& pl : planned) {
        const fs::path ex = lesson.exercises_dir() / pl.file;
        if (fs::exists(ex) && !file_equals(ex, pl.starter)) {
            if (r.backup_dir.empty()) r.backup_dir = new_backup_dir(lesson.root);
            fs::path saved = backup_file(lesson.root, r.backup_dir, ex);
            r.actions.push_back("saved your version of " + display_path(ex, lesson.root) + " to " +
                                display_path(saved, lesson.root));
        }
        if (!file_equals(ex, pl.starter)) {
            write_text(ex, pl.starter);
            r.actions.push_back("wrote " + display_path(ex, lesson.root));
        }
    }
    if (r.actions.empty()) r.actions.push_back("starters of " + lesson.id + " already match the solutions");
    return r;
}

std::optional<std::string> pristine_starter(const lesson::Lesson& lesson, const lesson::Exercise& exercise) {
    std::error_code ec;
    const fs::path solution = lesson.solutions_dir() / exercise.file();
    if (fs::is_regular_file(solution, ec))
        return make_starter(read_text(solution), display_path(solution, lesson.root)).text;
    const fs::path copy = lesson.pristine_dir() / exercise.file();
    if (fs::is_regular_file(copy, ec)) return read_text(copy);
    return std::nullopt;
}

std::vector<std::pair<fs::path, std::string>> pristine_copies(const fs::path& root) {
    std::vector<std::pair<fs::path, std::string>> out;
    for (const auto& id : lesson::lesson_ids(root)) {
        const lesson::Lesson L = lesson::load_lesson(root, id);
        for (const auto& ex : L.exercises) {
            const fs::path solution = L.solutions_dir() / ex.file();
            if (!fs::exists(solution)) continue;  // `workbook check` names an exercise without its solution
            out.push_back({fs::path("grader") / "pristine" / id / ex.file(),
                           make_starter(read_text(solution), display_path(solution, root)).text});
        }
    }
    return out;
}

}  // namespace workbook::lesson
