// Which files of the repository travel into a student edition or a Gradescope bundle: what git tracks (or would
// track), minus the instructor-only parts.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace workbook::tools {

// Paths (folders or files, relative to the root) never handed to students: the solutions (with wrong/alt answers
// and reference answers); what is built from them or checks against them (the known-answer and lesson tests, the
// benchmarks, the GPU verification scripts and their result pages); the emulator's own test programs, several of
// which implement the lesson's kernels; CI; build outputs and local state.
const std::vector<std::string>& instructor_only_paths();

// True for a relative path equal to or under one of instructor_only_paths(), or an instructor guide in docs/.
bool is_instructor_only(const std::filesystem::path& relative);

// The committed tree (HEAD) of the git work tree `root`, exported with `git archive` into a new temporary folder
// that the caller removes. What is built from it is what was committed, never uncommitted edits. `uncommitted`
// receives `git status --porcelain` lines (changes left out). Not a git work tree, no commit, or git missing:
// UserError.
std::filesystem::path export_committed(const std::filesystem::path& root,
                                       std::vector<std::string>* uncommitted = nullptr, std::string* commit = nullptr);

// Files of `root`, relative, sorted: `git ls-files --cached --others --exclude-standard` when root is a git work
// tree, else a walk that skips .git, build*/ and .workbook/. Instructor-only paths are left out.
std::vector<std::filesystem::path> distributable_files(const std::filesystem::path& root);

}  // namespace workbook::tools
