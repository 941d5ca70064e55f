#include "tools/student_edition.hpp"

#include <fstream>
#include <iterator>
#include <string>
#include <system_error>

#include "review/errors.hpp"
#include "tools/repo_files.hpp"

namespace fs = std::filesystem;

namespace workbook::tools {

EditionResult make_student_edition(const fs::path& repo_root, const fs::path& out) {
    std::error_code ec;
    const fs::path root = fs::weakly_canonical(repo_root, ec);
    const fs::path dest = fs::weakly_canonical(fs::absolute(out), ec);
    const fs::path rel = dest.lexically_relative(root);
    if (!rel.empty() && *rel.begin() != ".." && rel.is_relative())
        throw review::UserError("The student edition must go outside the repository (" + out.string() + " is inside it).");
    if (fs::exists(dest, ec) && !(fs::is_directory(dest, ec) && fs::is_empty(dest, ec)))
        throw review::UserError(out.string() + " already exists and is not empty; choose a new folder so nothing is overwritten.");
    const auto files = distributable_files(root);
    for (const auto& f : files) {
        // Marker text in a copied file means solution code is about to reach students: stop before writing any.
        std::ifstream in(root / f, std::ios::binary);
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        // CUDA sources only: the grader's own headers and docs describe the markers and are not solutions.
        if (f.extension() == ".cu" || f.extension() == ".cuh") {
            if (text.find("/*BLANK:") != std::string::npos || text.find("// BLANK:") != std::string::npos)
                throw review::UserError(f.string() + " holds blank markers (solution code); it was not copied and "
                                        "the student edition was not made.");
        }
    }
    fs::create_directories(dest, ec);
    if (ec) throw review::UserError("Cannot create " + out.string() + ".");
    EditionResult r;
    r.out = dest;
    for (const auto& f : files) {
        fs::create_directories((dest / f).parent_path(), ec);
        fs::copy_file(root / f, dest / f, fs::copy_options::overwrite_existing, ec);
        if (ec) throw review::UserError("Could not copy " + f.string() + " (" + ec.message() + ").");
        ++r.files;
    }
    return r;
}

}  // namespace workbook::tools
