#include "tools/solutions_branch.hpp"

#include <cstdlib>
#include <system_error>
#include <unistd.h>

#include "util/errors.hpp"
#include "util/files.hpp"
#include "lesson/lesson.hpp"
#include "lesson/markers.hpp"
#include "util/subprocess.hpp"

namespace fs = std::filesystem;

namespace workbook::tools {
namespace {

std::string trim(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
    return s;
}

util::RunResult git(const fs::path& dir, std::vector<std::string> args) {
    args.insert(args.begin(), {"git", "-C", dir.string()});
    return util::run_program(args, {}, 300);
}

std::string git_ok(const fs::path& dir, const std::vector<std::string>& args, const std::string& what) {
    auto r = git(dir, args);
    if (!r.started) throw util::UserError("git is not installed; it is needed to " + what + ".");
    if (r.exit_code != 0) throw util::UserError("git failed to " + what + ": " + trim(r.output));
    return trim(r.output);
}

// Removes the temporary worktree however the update ends.
struct Worktree {
    fs::path repo, dir;
    ~Worktree() {
        if (dir.empty()) return;
        git(repo, {"worktree", "remove", "--force", dir.string()});
        std::error_code ec;
        fs::remove_all(dir.parent_path(), ec);  // the mkdtemp folder around it
        git(repo, {"worktree", "prune"});
    }
};

}  // namespace

BranchResult update_solutions_branch(const fs::path& repo_root, const std::string& branch) {
    if (util::which("git").empty())
        throw util::UserError("git is not installed; it is needed for the solutions branch.");
    auto inside = git(repo_root, {"rev-parse", "--is-inside-work-tree"});
    if (inside.exit_code != 0 || trim(inside.output) != "true")
        throw util::UserError(repo_root.string() + " is not a git repository.");
    auto head = git(repo_root, {"rev-parse", "--verify", "--quiet", "HEAD^{commit}"});
    if (head.exit_code != 0)
        throw util::UserError("The repository has no commit yet; commit once, then make the solutions branch.");
    const std::string head_sha = trim(head.output);

    // Everything is computed before git is touched, so a malformed marker changes nothing.
    std::vector<std::pair<std::string, std::string>> files;  // relative path, content
    for (const auto& id : lesson::lesson_ids(repo_root)) {
        const fs::path dir = repo_root / "solutions" / id;
        for (const auto& sol : util::files_with_ext(dir, ".cu")) {
            const std::string rel = "exercises/" + id + "/" + sol.filename().string();
            files.push_back(
                {rel, lesson::strip_markers(util::read_text(sol), util::display_path(sol, repo_root)).text});
        }
        // The written answers too, so that `make grade-NN` on the branch passes with full points.
        const std::string answers = lesson::load_lesson(repo_root, id).answers_file;
        if (fs::exists(dir / answers))
            files.push_back({"exercises/" + id + "/" + answers, util::read_text(dir / answers)});
    }
    if (files.empty()) throw util::UserError("There are no solutions (solutions/<lesson>/*.cu) to put on a branch.");

    BranchResult r;
    r.branch = branch;
    auto existing = git(repo_root, {"rev-parse", "--verify", "--quiet", "refs/heads/" + branch});
    const bool exists = existing.exit_code == 0;
    const std::string start = exists ? trim(existing.output) : head_sha;
    r.created = !exists;

    char tmpl[] = "/tmp/workbook-solutions-XXXXXX";
    if (!mkdtemp(tmpl)) throw util::UserError("Cannot create a temporary folder for the worktree.");
    Worktree wt{repo_root, fs::path(tmpl) / "wt"};
    git_ok(repo_root, {"worktree", "add", "--detach", "--quiet", wt.dir.string(), start},
           "create a temporary worktree");
    // The branch follows the current commit: its tree is HEAD's, then the solutions go over the exercises.
    git_ok(wt.dir, {"read-tree", "-u", "--reset", head_sha}, "load the current commit into the worktree");
    for (const auto& [rel, text] : files) {
        util::write_text(wt.dir / rel, text);
        r.files.push_back(rel);
    }
    git_ok(wt.dir, {"add", "-A", "--", "exercises"}, "stage the solutions");
    auto same = git(wt.dir, {"diff", "--cached", "--quiet", start});
    r.changed = !exists || same.exit_code != 0;
    if (!r.changed) {
        r.commit = start;
        return r;
    }
    std::vector<std::string> commit = {"commit", "--quiet", "--no-verify", "-m",
                                       "Solutions swapped into exercises/ (from " + head_sha.substr(0, 12) + ")"};
    // A fresh machine may have no git identity; the branch still needs an author.
    if (git(repo_root, {"config", "user.email"}).exit_code != 0)
        commit.insert(commit.begin(), {"-c", "user.name=workbook", "-c", "user.email=workbook@localhost"});
    git_ok(wt.dir, commit, "commit the solutions");
    r.commit = git_ok(wt.dir, {"rev-parse", "HEAD"}, "read the new commit");
    std::vector<std::string> update = {"update-ref", "refs/heads/" + branch, r.commit};
    if (exists) update.push_back(start);  // refuse if someone moved the branch meanwhile
    git_ok(repo_root, update, "move the branch '" + branch + "'");
    return r;
}

}  // namespace workbook::tools
