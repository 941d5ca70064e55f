// Code blocks of the lesson included from compiled, tested sources (issue 14, item 2), so that names and indexing
// shown in the text are those of the exercise and cannot drift.
//
// In the Markdown a block names its source in the fence's info string, after the language:
//
//     ```c++ include=exercises/04-rmsnorm/rmsnorm.cu#pass2
//     …generated, never edited by hand…
//     ```
//
// In the source the region is delimited by two comment lines, `// ANCHOR: pass2` and `// ANCHOR_END: pass2`; the
// lines between them, minus any other anchor line and minus their common indentation, are the block's body.
// `exercises/<lesson>/<file>` is the starter as shipped, made from `solutions/<lesson>/<file>` by the grader's marker
// code (a student's own exercise file may differ); a block may not include from `solutions/`, where a region could
// hold a fill.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace lesson_code {

struct Include {
    int line = 0;        // 1-based line of the opening fence
    std::string source;  // as written: exercises/04-rmsnorm/rmsnorm.cu
    std::string anchor;  // pass2
};

// The anchored region of `source_text`; throws std::runtime_error naming `label` when the anchor is missing, opened
// twice or never closed.
std::string extract_anchor(const std::string& source_text, const std::string& anchor, const std::string& label);

// Anchor lines inside a block blank (`// BLANK:id` … `// END BLANK`) of a marked solution, as "file:line" messages:
// a region that starts or ends inside a fill would print part of it.
std::vector<std::string> anchors_inside_blanks(const std::string& solution_text, const std::string& label);

struct Rendered {
    std::string text;  // the Markdown with every include block regenerated
    std::vector<Include> includes;
    std::vector<std::string> problems;  // a C/C++/CUDA block without include=, a source under solutions/, …
};

// Regenerates every include block of `markdown` from the files under `root`. Problems are collected, not thrown,
// except for unreadable sources and missing anchors, which throw.
Rendered render(const std::string& markdown, const std::string& label, const std::filesystem::path& root);

}  // namespace lesson_code
