#include "markdown_marks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace lesson_test {
namespace {

// Thousands groups must be complete ("1,024"), so a list such as "3, 4" is never read as one number.
const char* const kNumber = R"((-|−)?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?:[eE]([-+]?\d+))?)";

}  // namespace

Written parse_written(const std::string& text) {
    static const std::regex number(std::string("^") + kNumber + "$");
    std::smatch m;
    if (!std::regex_match(text, m, number)) throw std::invalid_argument("not a number: '" + text + "'");
    std::string digits = m[2].str();
    digits.erase(std::remove(digits.begin(), digits.end(), ','), digits.end());
    const std::string decimals = m[3].str();
    const int exponent = m[4].matched ? std::stoi(m[4].str()) : 0;
    Written w;
    w.text = text;
    w.value = std::stod(digits + (decimals.empty() ? "" : "." + decimals) + "e" + std::to_string(exponent));
    if (m[1].matched) w.value = -w.value;
    w.unit = std::pow(10.0, exponent - static_cast<int>(decimals.size()));
    return w;
}

bool agrees(double computed, const Written& written) {
    // The relative slack only absorbs binary representation error of the decimal text, never a digit.
    const double slack = 1e-12 * std::max(1.0, std::fabs(written.value));
    return std::fabs(computed - written.value) <= written.unit / 2 + slack;
}

std::vector<Mark> scan_marks(const std::string& text, const std::string& file_label, std::vector<std::string>& errors) {
    static const std::regex marker(R"(<!--\s*calc:([A-Za-z0-9_]+)\s*-->)");
    static const std::regex number_after(std::string(R"(^[ \t]*(?:\$|\*\*|`)?[ \t]*)") + "(" + kNumber + ")");
    std::vector<Mark> marks;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), marker); it != std::sregex_iterator(); ++it) {
        const auto& m = *it;
        const auto pos = static_cast<std::size_t>(m.position(0));
        const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + pos, '\n'));
        const std::string rest = text.substr(pos + m.length(0), 64);
        std::smatch n;
        if (!std::regex_search(rest, n, number_after)) {
            errors.push_back(file_label + ":" + std::to_string(line) + ": marker calc:" + m[1].str() +
                             " is not followed by a number");
            continue;
        }
        std::string written = n[1].str();
        if (written.rfind("−", 0) == 0) written = "-" + written.substr(std::string("−").size());
        marks.push_back(Mark{file_label, line, m[1].str(), parse_written(written)});
    }
    return marks;
}

std::vector<Mark> find_marks(const std::filesystem::path& file, const std::string& label,
                             std::vector<std::string>* errors) {
    std::ifstream in(file);
    if (!in) throw std::runtime_error("cannot read " + file.string());
    std::stringstream ss;
    ss << in.rdbuf();
    std::vector<std::string> local;
    return scan_marks(ss.str(), label, errors ? *errors : local);
}

std::string format(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

bool opens_html_block(const std::string& line) {
    static const std::regex starts_with_comment(R"(^[ \t]*<!--)");
    static const std::regex whole_comment(R"(^[ \t]*<!--([^-]|-[^-])*-->[ \t]*$)");
    return std::regex_search(line, starts_with_comment) && !std::regex_match(line, whole_comment);
}

}  // namespace lesson_test
