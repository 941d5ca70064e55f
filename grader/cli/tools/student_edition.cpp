#include "tools/student_edition.hpp"

#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <system_error>

#include "util/errors.hpp"
#include "util/util.hpp"
#include "util/files.hpp"
#include "lesson/sync.hpp"
#include "tools/repo_files.hpp"

namespace fs = std::filesystem;

namespace workbook::tools {
namespace {

// Removes the exported tree however the edition ends.
struct TempTree {
    fs::path dir;
    ~TempTree() {
        std::error_code ec;
        if (!dir.empty()) fs::remove_all(dir, ec);
    }
};

}  // namespace

std::string student_markdown(const std::string& text) {
    std::istringstream in(text);
    std::string line, out;
    bool skipping = false;
    while (std::getline(in, line)) {
        if (line.find("<!-- instructor:begin -->") != std::string::npos) {
            skipping = true;
            continue;
        }
        if (line.find("<!-- instructor:end -->") != std::string::npos) {
            skipping = false;
            continue;
        }
        if (skipping || line.find("<!-- instructor -->") != std::string::npos) continue;
        out += line + "\n";
    }
    if (!text.empty() && text.back() != '\n' && !out.empty()) out.pop_back();
    return out;
}

EditionResult make_student_edition(const fs::path& repo_root, const fs::path& out) {
    std::error_code ec;
    const fs::path root = fs::weakly_canonical(repo_root, ec);
    const fs::path dest = fs::weakly_canonical(fs::absolute(out), ec);
    const fs::path rel = dest.lexically_relative(root);
    if (!rel.empty() && *rel.begin() != ".." && rel.is_relative())
        throw util::UserError("The student edition must go outside the repository (" + out.string() +
                              " is inside it).");
    if (fs::exists(dest, ec) && !(fs::is_directory(dest, ec) && fs::is_empty(dest, ec)))
        throw util::UserError(out.string() +
                              " already exists and is not empty; choose a new folder so nothing is overwritten.");
    EditionResult r;
    TempTree tree{export_committed(root, &r.uncommitted, &r.commit)};
    const auto files = distributable_files(tree.dir);
    for (const auto& f : files) {
        // Marker text in a copied file means solution code is about to reach students: stop before writing any.
        // CUDA sources only: the grader's own headers and docs describe the markers and are not solutions.
        if (f.extension() != ".cu" && f.extension() != ".cuh") continue;
        const std::string text = util::read_file(tree.dir / f).value_or("");
        if (text.find("/*BLANK:") != std::string::npos || text.find("// BLANK:") != std::string::npos)
            throw util::UserError(f.string() +
                                  " holds blank markers (solution code); it was not copied and "
                                  "the student edition was not made.");
    }
    fs::create_directories(dest, ec);
    if (ec) throw util::UserError("Cannot create " + out.string() + ".");
    r.out = dest;
    for (const auto& f : files) {
        fs::create_directories((dest / f).parent_path(), ec);
        if (f.extension() == ".md") {
            util::write_text(dest / f, student_markdown(util::read_file(tree.dir / f).value_or("")));
        } else {
            fs::copy_file(tree.dir / f, dest / f, fs::copy_options::overwrite_existing, ec);
            if (ec) throw util::UserError("Could not copy " + f.string() + " (" + ec.message() + ").");
            fs::permissions(dest / f, fs::status(tree.dir / f, ec).permissions(), ec);  // scripts stay executable
        }
        ++r.files;
    }
    // The edit check's reference starters, which the repository derives from the solutions left behind.
    for (const auto& [rel, text] : lesson::pristine_copies(tree.dir)) {
        util::write_text(dest / rel, text);
        ++r.files;
    }
    return r;
}

}  // namespace workbook::tools
