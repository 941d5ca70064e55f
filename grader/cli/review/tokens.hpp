// Source as the edit check sees it: what the compiler reads (line splices joined, digraphs and the alternative
// operator keywords in their usual spelling), significant tokens only (comments and whitespace dropped), each with
// its kind, line and byte range so a diff or a blank's fill can quote the student's own text.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include <cxxlex/cxxlex.hpp>

namespace workbook::review {

struct Tok {
    std::string text;  // normalized: `<%` is `{`, `and` is `&&`; a directive's comments dropped, single spaces
    cxxlex::Kind kind = cxxlex::Kind::other;
    int line = 0;           // 1-based
    std::size_t begin = 0;  // byte range in the source
    std::size_t end = 0;
    bool fix_region = false;  // a `______` of pattern_tokens standing for a fix region's code (its bytes: begin, end)
    bool is_blank() const { return text == "______"; }
};

std::vector<Tok> code_tokens(const std::string& source);

// The comments of `source` (text with their markers, splices joined), with lines.
std::vector<Tok> comment_tokens(const std::string& source);

// A starter's tokens as the edit check matches them: code_tokens, with the code of each fix region (a bug hunt's
// editable lines, lesson/markers.hpp) replaced by one `______` on the region's `// fix: <id>` line.
std::vector<Tok> pattern_tokens(const std::string& starter);

// Ids of a starter's block blanks and fix regions, from their `______  // blank: <id>` and `// fix: <id>` lines, in
// order; "" for an inline blank.
std::vector<std::string> pristine_blank_ids(const std::string& starter);

// Whether `word` is one of `list` (a token's text against the keywords or operators a check names).
bool among(std::string_view word, std::initializer_list<std::string_view> list);

// Code as a refusal quotes it: in backticks, on one line, at most 60 characters.
std::string code_quoted(std::string s);

// The source line `line` (1-based) without its indentation and trailing blanks.
std::string line_text(const std::string& source, int line);

}  // namespace workbook::review
