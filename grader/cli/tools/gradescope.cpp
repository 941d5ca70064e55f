#include "tools/gradescope.hpp"

#include <stdlib.h>

#include <system_error>

#include "util/errors.hpp"
#include "util/files.hpp"
#include "util/subprocess.hpp"
#include "lesson/sync.hpp"
#include "tools/repo_files.hpp"

namespace fs = std::filesystem;

namespace workbook::tools {
namespace {

void replace_all(std::string& s, const std::string& from, const std::string& to) {
    for (std::size_t p = 0; (p = s.find(from, p)) != std::string::npos; p += to.size()) s.replace(p, from.size(), to);
}

// A temporary folder removed with this object.
struct Staging {
    fs::path dir;
    Staging() {
        char tmpl[] = "/tmp/workbook-gradescope-XXXXXX";
        if (!::mkdtemp(tmpl)) throw util::UserError("Cannot create a temporary folder for the bundle.");
        dir = tmpl;
    }
    ~Staging() {
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
    Staging(const Staging&) = delete;
    Staging& operator=(const Staging&) = delete;
};

}  // namespace

std::string gradescope_script(const lesson::Lesson& lesson, const std::string& name) {
    const fs::path tmpl = lesson.root / "grader" / "gradescope" / (name + ".in");
    std::error_code ec;
    if (!fs::is_regular_file(tmpl, ec))
        throw util::UserError("The Gradescope template " + util::display_path(tmpl, lesson.root) + " is missing.");
    std::string text = util::read_text(tmpl);
    replace_all(text, "@LESSON_ID@", lesson.id);
    replace_all(text, "@LESSON_NUMBER@", lesson.number);
    return text;
}

BundleResult write_gradescope_bundle(const lesson::Lesson& lesson, const fs::path& out_zip) {
    std::error_code ec;
    if (!fs::is_directory(lesson.exercises_dir(), ec))
        throw util::UserError("The exercises folder " + util::display_path(lesson.exercises_dir(), lesson.root) +
                              " does not exist.");
    const std::string cmake = util::which("cmake");
    if (cmake.empty())
        throw util::UserError(
            "cmake is not installed; it writes the bundle. Install it with:  sudo apt-get install -y cmake");

    Staging staging;
    for (const char* script : {"setup.sh", "run_autograder"}) {
        const fs::path p = staging.dir / script;
        util::write_text(p, gradescope_script(lesson, script));
        fs::permissions(p,
                        fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec | fs::perms::others_read |
                            fs::perms::others_exec,
                        ec);
    }
    BundleResult r;
    // What was committed, never uncommitted edits (the instructor is told what was left out); a folder that is not a
    // git checkout is bundled as it is, and the note says so.
    struct Exported {
        fs::path dir;
        ~Exported() {
            std::error_code e;
            if (!dir.empty()) fs::remove_all(dir, e);
        }
    } exported;
    fs::path source = lesson.root;
    try {
        exported.dir = export_committed(lesson.root, &r.uncommitted, &r.commit);
        source = exported.dir;
    } catch (const util::UserError& e) {
        r.note = std::string("bundled from the folder as it is, not from a commit: ") + e.what();
    }
    for (const auto& rel : distributable_files(source)) {
        const fs::path abs = source / rel;
        // The bundle copies files as bytes: an image or a binary fixture is fine, but nothing huge.
        if (fs::file_size(abs, ec) > 64u * 1024 * 1024)
            throw util::UserError(rel.string() + " is over 64 MiB; leave it out of the repository before bundling.");
        const fs::path dest = staging.dir / "workbook" / rel;
        fs::create_directories(dest.parent_path(), ec);
        fs::copy_file(abs, dest, fs::copy_options::overwrite_existing, ec);  // keeps the permissions
        if (ec) throw util::UserError("Cannot copy " + rel.string() + " into the bundle: " + ec.message() + ".");
        ++r.files;
    }
    // The edit check's reference starters, which the repository derives from the solutions left behind.
    for (const auto& [rel, text] : lesson::pristine_copies(source)) {
        util::write_text(staging.dir / "workbook" / rel, text);
        ++r.files;
    }

    r.zip = fs::absolute(out_zip);
    if (fs::exists(r.zip, ec)) r.backup = util::backup_file(lesson.root, util::new_backup_dir(lesson.root), r.zip);
    if (r.zip.has_parent_path()) fs::create_directories(r.zip.parent_path(), ec);
    const fs::path tmp_zip = staging.dir / "bundle.zip";
    // A fixed date makes the archive depend on the files only.
    auto tar = util::run_program({cmake, "-E", "tar", "cf", tmp_zip.string(), "--format=zip",
                                  "--mtime=2000-01-01 00:00:00 UTC", "--", "setup.sh", "run_autograder", "workbook"},
                                 staging.dir, 600);
    if (!tar.started || tar.exit_code != 0)
        throw util::UserError("cmake -E tar could not write the bundle: " + tar.output);
    fs::copy_file(tmp_zip, r.zip, fs::copy_options::overwrite_existing, ec);
    if (ec) throw util::UserError("Cannot write " + r.zip.string() + ".");
    return r;
}

}  // namespace workbook::tools
