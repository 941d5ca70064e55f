// `workbook student-edition --out DIR`: a copy of the course for students, made from the committed files only (git
// archive HEAD): no solutions, nothing built from or checked against them, no instructor guide, no CI. Markdown
// lines marked `<!-- instructor -->`, and blocks between `<!-- instructor:begin -->` and `<!-- instructor:end -->`
// lines, are left out of the copied .md files, so its README and guides name only commands that work there.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace workbook::tools {

struct EditionResult {
    std::filesystem::path out;
    std::size_t files = 0;
    std::string commit;                    // the commit the edition was made from
    std::vector<std::string> uncommitted;  // `git status --porcelain` lines: changes that are NOT in the edition
};

// `out` must not exist or be an empty folder, and must lie outside the repository. Before anything is written the
// files are checked: a blank marker (`/*BLANK:` or `// BLANK:`) in a .cu/.cuh file means a solution would leak,
// which is a UserError. Not a git work tree with a commit: UserError.
EditionResult make_student_edition(const std::filesystem::path& repo_root, const std::filesystem::path& out);

// A Markdown text without its instructor-only lines and blocks (see above).
std::string student_markdown(const std::string& text);

}  // namespace workbook::tools
