// Does a blank's fill appear in the lesson text? Both sides are compared as C++ tokens (grader/cxxlex through the
// review's code_tokens), after a normalization that removes what a copy can change without changing the code:
// every name becomes one placeholder, casts, `const`, braces and parentheses around a single operand go, numbers are
// compared by value, and a shift by a constant reads as the division or modulo it stands for. A fill leaks when some
// stretch of a code region of the Markdown is within a tenth of the fill's length in token edits (fills shorter than
// ten tokens must not appear at all), or when one of its statements of at least kLongStatement tokens does: the key
// line of a fill with a short preamble, or its value alone, is as much the answer as the whole. Code regions are fenced
// blocks, inline code spans and `\texttt{…}` in math.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace lesson_test {

struct BlankFill {
    std::string exercise;  // file stem, e.g. "block_reduce"
    std::string blank;     // blank id, e.g. "warp_shuffle"
    std::string text;      // the solution's code between the markers
};

// Every blank of every marked solution in `dir`, read through the grader's marker library (review/markers.hpp):
// the fills are what the edit check sees when the stripped solution is compared with its own starter.
std::vector<BlankFill> solution_fills(const std::filesystem::path& dir);

struct CodeRegion {
    int line = 0;  // 1-based line of the Markdown where the region starts
    std::string code;
};

// Fenced code blocks, inline code spans and \texttt{…} (with `\_` read as `_`) of a Markdown text.
std::vector<CodeRegion> code_regions(const std::string& markdown);

// The normalized tokens of a piece of C++.
std::vector<std::string> normalized_tokens(const std::string& code);

// Fewest token edits (insert, delete, replace) that turn `pattern` into some contiguous stretch of `text`.
std::size_t best_match_distance(const std::vector<std::string>& pattern, const std::vector<std::string>& text);

// The edits a stretch may differ by and still count as the fill: a tenth of its normalized length, rounded down.
std::size_t leak_threshold(std::size_t fill_tokens);

// A statement this long (normalized tokens, up to its `;`) is checked on its own.
inline constexpr std::size_t kLongStatement = 15;

// The statements of a fill's normalized tokens that are at least kLongStatement long, split at top-level `;`, and
// the value assigned by each of them when that is as long.
std::vector<std::vector<std::string>> long_statements(const std::vector<std::string>& tokens);

struct Leak {
    std::string blank;  // "exercise/blank"
    int line = 0;       // line of the code region
    std::size_t distance = 0;
    std::string region;  // the region's code, for the message
};

// The fills that appear in `markdown` (see above).
std::vector<Leak> find_leaks(const std::vector<BlankFill>& fills, const std::string& markdown);

}  // namespace lesson_test
