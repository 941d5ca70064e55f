// `workbook gradescope 04 --out FILE.zip`: a Gradescope autograder bundle. Its setup.sh and run_autograder are the
// templates grader/gradescope/*.in filled in for the lesson; the repository travels under workbook/ without its
// instructor-only parts. The archive is written by `cmake -E tar --format=zip` (CMake's libarchive), which keeps the
// scripts' executable bits.
#pragma once

#include <filesystem>
#include <string>
#include <vector>
#include <string>

#include "lesson/lesson.hpp"

namespace workbook::tools {

// grader/gradescope/<name>.in with @LESSON_ID@ and @LESSON_NUMBER@ filled in. UserError when it is missing.
std::string gradescope_script(const lesson::Lesson& lesson, const std::string& name);

struct BundleResult {
    std::filesystem::path zip;
    std::size_t files = 0;                 // repository files inside, besides the two scripts
    std::filesystem::path backup;          // a previous bundle at the same path, saved first
    std::string commit;                    // the commit bundled (git archive of HEAD)
    std::vector<std::string> uncommitted;  // changes of the work tree left out of the bundle
    std::string note;                      // set when the folder is not a git checkout (bundled as it is)
};

// Throws UserError when the lesson has no exercises folder, a template is missing, cmake is not found or the output
// cannot be written.
BundleResult write_gradescope_bundle(const lesson::Lesson& lesson, const std::filesystem::path& out_zip);

}  // namespace workbook::tools
