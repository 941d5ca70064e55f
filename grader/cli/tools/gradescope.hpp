// `workbook gradescope 04 --out FILE.zip`: a Gradescope autograder bundle. setup.sh installs the Debian packages and
// builds the grader; run_autograder copies /autograder/submission into place, runs `make grade-04 SUBMISSION=…` and
// copies results.json to /autograder/results/. The repository travels without its instructor-only parts.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "review/manifest.hpp"

namespace workbook::tools {

// Debian packages the grader needs on a machine without CUDA (the emu backend).
const std::vector<std::string>& grader_packages();

std::string gradescope_setup_sh();
std::string gradescope_run_autograder(const review::LessonPaths& lesson);

struct BundleResult {
    std::filesystem::path zip;
    std::size_t files = 0;        // repository files inside, besides the two scripts
    std::filesystem::path backup; // a previous bundle at the same path, saved first
};

// Throws UserError when the lesson has no exercises folder or the output cannot be written.
BundleResult write_gradescope_bundle(const review::LessonPaths& lesson, const std::filesystem::path& out_zip);

}  // namespace workbook::tools
