// Source as the edit check sees it: significant tokens only (comments and whitespace dropped), each with its line and
// byte range so a diff or a blank's fill can quote the student's own text.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace workbook::review {

struct Tok {
    std::string text;        // preprocessor directives normalized: comments dropped, single spaces
    int line = 0;            // 1-based
    std::size_t begin = 0;   // byte range in the source
    std::size_t end = 0;
    bool is_blank() const { return text == "______"; }
};

std::vector<Tok> code_tokens(const std::string& source);

// The comments of `source` (text with their markers), with lines.
std::vector<Tok> comment_tokens(const std::string& source);

// Ids of a starter's block blanks, from their `______  // blank: <id>` lines, in order; "" for an inline blank.
std::vector<std::string> pristine_blank_ids(const std::string& starter);

// The source line `line` (1-based) without its indentation and trailing blanks.
std::string line_text(const std::string& source, int line);

}  // namespace workbook::review
