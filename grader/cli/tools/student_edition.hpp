// `workbook student-edition --out DIR`: a copy of the repository for students — no solutions/, no reference
// answers, no instructor guide, no project test suite or CI that need the solutions.
#pragma once

#include <filesystem>
#include <vector>

namespace workbook::tools {

struct EditionResult {
    std::filesystem::path out;
    std::size_t files = 0;
};

// `out` must not exist or be an empty folder, and must lie outside the repository. Afterwards the copy is checked:
// a blank marker (`/*BLANK:` or `// BLANK:`) in a copied .cu/.cuh file means a solution leaked, which is a UserError.
EditionResult make_student_edition(const std::filesystem::path& repo_root, const std::filesystem::path& out);

}  // namespace workbook::tools
