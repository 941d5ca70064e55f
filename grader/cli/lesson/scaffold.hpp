// `workbook new-lesson <NN-name>`: a new lesson that passes `workbook check`, builds and grades, written only into its
// own folders: lessons/<slug>/ (manifest and first page), solutions/<slug>/ (a marked solution), exercises/<slug>/
// (its starter) and grader/hidden-tests/<slug>/ (its hidden tests). Its one exercise, `scale`, is a placeholder to
// replace with the lesson's own (docs/adding-a-lesson.md).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace workbook::lesson {

// The files written, relative to `root`. UserError for a slug that is not "NN-name" (two digits, then lower-case
// letters, digits and '-') or whose number or folders already exist; nothing is written then.
std::vector<std::filesystem::path> scaffold_lesson(const std::filesystem::path& root, const std::string& slug);

}  // namespace workbook::lesson
