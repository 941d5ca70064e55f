// Finding the numbers the lesson marks as computable: `<!-- calc:<id> -->` followed by a number, optionally inside
// `$…$`, `**…**` or backticks. The digits written decide how closely the number must agree with its computation.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace lesson_test {

struct Written {
    std::string text;  // as written, e.g. "671,096,832" or "0.848528"
    double value = 0;  // the number it denotes
    double unit = 1;   // one unit in the last written digit (1e-6 for "0.848528")
};

struct Mark {
    std::string file;
    int line = 0;
    std::string id;
    Written written;
};

// Parses a number as the lesson writes it: optional sign, digits with optional thousands commas, optional
// decimals, optional exponent. Throws std::invalid_argument when `text` is not such a number.
Written parse_written(const std::string& text);

// True when `computed`, rounded to the digits of `written`, gives `written`: |computed − written| ≤ unit / 2.
bool agrees(double computed, const Written& written);

// All marks in `text`; a marker not followed by a number adds a message to `errors`.
std::vector<Mark> scan_marks(const std::string& text, const std::string& file_label, std::vector<std::string>& errors);

// The same for a file, reported as `label`; messages go to `errors` when given, and are otherwise dropped.
std::vector<Mark> find_marks(const std::filesystem::path& file, const std::string& label,
                             std::vector<std::string>* errors = nullptr);

// A value with enough digits to compare by eye with the text.
std::string format(double v);

// True when `line` starts (after blanks) with `<!--` and holds more than that one comment: in CommonMark such a line
// opens a raw HTML block, so the rest of it would lose its Markdown (code, math) and split the paragraph on GitHub.
// A line that is one whole comment and nothing else (a generated table's bounds, scripts/lesson/tables.hpp) is a
// block of its own and loses nothing.
bool opens_html_block(const std::string& line);

}  // namespace lesson_test
