// Which files of the repository travel into a student edition or a Gradescope bundle: what git tracks (or would
// track), minus the instructor-only parts.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace workbook::tools {

// Top-level folders never handed to students: the solutions (with wrong/alt answers and reference answers), the
// project's own test suite and CI (they need the solutions), build outputs and local state.
const std::vector<std::string>& instructor_only_paths();

// True for a relative path under one of instructor_only_paths(), or an instructor guide in docs/.
bool is_instructor_only(const std::filesystem::path& relative);

// Files of `root`, relative, sorted: `git ls-files --cached --others --exclude-standard` when root is a git work
// tree, else a walk that skips .git, build*/ and .workbook/. Instructor-only paths are left out.
std::vector<std::filesystem::path> distributable_files(const std::filesystem::path& root);

}  // namespace workbook::tools
