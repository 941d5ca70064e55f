// Tables of a lesson's exercises in the documentation, generated from its manifest (lessons/<slug>/lesson.json), so
// that names, files, blanks, points and entry points in the text cannot drift from what the grader grades.
//
// In the Markdown a generated table stands between two comment lines:
//
//     <!-- table: exercises 04-rmsnorm -->
//     …generated, never edited by hand…
//     <!-- end table -->
//
// The kinds:
//   exercises     exercise (file), blanks, points of its normal and edge tests, the section that teaches it
//   entry-points  exercise (file), blanks, the entry points the hidden tests call
//   points        the core rubric: the core exercise's test groups and the written items, with the total
// The lesson may be left out inside lessons/<slug>/, where it is that lesson.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace lesson_code {

struct RenderedTables {
    std::string text;                   // the Markdown with every generated table rewritten
    int tables = 0;                     // how many it holds
    std::vector<std::string> problems;  // an unknown kind, a table never closed, …, as "file:line: …"
};

// Rewrites the generated tables of `markdown` (the file `file`, under `root`) from the manifests. `default_lesson`
// is the lesson a marker without one means (empty outside a lesson's folder). Throws UserError when a manifest
// cannot be read.
RenderedTables render_tables(const std::string& markdown, const std::filesystem::path& file,
                             const std::filesystem::path& root, const std::string& default_lesson);

}  // namespace lesson_code
