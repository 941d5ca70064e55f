#include "intake.hpp"

#include <algorithm>
#include <cctype>

#include "util/util.hpp"

namespace workbook::grade {

std::string short_refusal(const std::string& sentence) {
    std::string s = sentence.substr(0, std::min(sentence.find("; "), sentence.find(": ")));
    if (auto p = s.find(", not a file"); p != std::string::npos) s.erase(p, 12);
    while (!s.empty() && (s.back() == '.' || s.back() == ' ')) s.pop_back();
    return s;
}

std::string replace_invalid_utf8(const std::string& text, std::vector<int>* lines) {
    std::string out;
    out.reserve(text.size());
    int line = 1;
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
        if (n > 1 && (i + n > text.size() || !util::is_utf8(text.substr(i, n)))) n = 0;
        if (n == 0) {
            if (lines->empty() || lines->back() != line) lines->push_back(line);
            out += '?';
            ++i;
            continue;
        }
        if (c == '\n') ++line;
        out.append(text, i, n);
        i += n;
    }
    return out;
}

std::string invalid_utf8_warning(const std::string& file, const std::vector<int>& lines) {
    std::vector<std::string> where;
    for (std::size_t i = 0; i < lines.size() && i < 5; ++i) where.push_back(std::to_string(lines[i]));
    return file + ": line" + (lines.size() == 1 ? " " : "s ") + util::join(where, ", ") +
           (lines.size() > 5 ? ", …" : "") + (lines.size() == 1 ? " holds" : " hold") +
           " bytes that are not UTF-8 text (a file saved in another encoding?). It was graded anyway; save it as "
           "UTF-8.";
}

namespace {

// `name` folded for that comparison: lower case, a trailing ".txt" dropped, then the stem (before the first '.')
// without a copy's mark and without anything but letters and digits, and the rest (the extension) as it is.
std::string folded(std::string name) {
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (name.size() > 4 && name.compare(name.size() - 4, 4, ".txt") == 0) name.resize(name.size() - 4);
    const std::size_t dot = name.find('.');
    std::string stem = name.substr(0, dot), ext = dot == std::string::npos ? "" : name.substr(dot);
    for (const char* mark : {"copy", "kopie", "副本"})
        if (auto at = stem.rfind(mark); at != std::string::npos && at > 0) stem.erase(at);
    std::string kept;
    for (char c : stem)
        if (std::isalnum(static_cast<unsigned char>(c))) kept += c;
    while (!kept.empty() && std::isdigit(static_cast<unsigned char>(kept.back()))) kept.pop_back();
    return kept + ext;
}

}  // namespace

bool looks_renamed(const std::string& name, const std::string& file) {
    return name != file && folded(name) == folded(file);
}

}  // namespace workbook::grade
