// `workbook solutions-branch`: creates or updates the git branch `solutions`, whose tree is the current commit's with
// every exercises/<lesson>/*.cu replaced by its solution (markers stripped) and answers.md by the filled-in answers,
// so `make grade-NN` passes there with full points — for an instructor to swap in. Works in a temporary worktree;
// the student's working tree, index and current branch are never touched.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace workbook::tools {

struct BranchResult {
    std::string branch;
    std::string commit;  // the branch's commit afterwards
    bool created = false;
    bool changed = false;            // false: the branch already held exactly this
    std::vector<std::string> files;  // exercise files written from solutions
};

// Throws UserError when `repo_root` is not a git work tree, has no commit, or has no solutions.
BranchResult update_solutions_branch(const std::filesystem::path& repo_root, const std::string& branch = "solutions");

}  // namespace workbook::tools
