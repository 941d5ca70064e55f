#include "code_include.hpp"

#include "lesson/markers.hpp"
#include "util/files.hpp"
#include "util/util.hpp"

#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace lesson_code {
namespace {

using workbook::util::split_lines;
using workbook::util::trim;

bool anchor_line(const std::string& line, const char* kind, std::string* name) {
    const std::string t = trim(line);
    const std::string prefix = std::string("// ") + kind + ": ";
    if (t.rfind(prefix, 0) != 0) return false;
    if (name) *name = trim(t.substr(prefix.size()));
    return true;
}

std::string read_source(const std::filesystem::path& p) { return workbook::util::read_text(p); }

// `exercises/<lesson>/<file>` as shipped: the starter made from the marked solution where the checkout has it (the
// student's own exercise file may differ), else the pristine copy a student edition carries, else the file itself.
std::string starter_or_source(const std::filesystem::path& root, const std::string& source) {
    const std::string ex = "exercises/";
    if (source.rfind(ex, 0) != 0) return read_source(root / source);
    const std::string rest = source.substr(ex.size());
    std::error_code ec;
    if (std::filesystem::exists(root / "solutions" / rest, ec))
        return workbook::lesson::make_starter(read_source(root / "solutions" / rest), source).text;
    if (std::filesystem::exists(root / "grader" / "pristine" / rest, ec))
        return read_source(root / "grader" / "pristine" / rest);
    return read_source(root / source);
}

// The two patterns below were std::regex once; at -O0 <regex> was most of this file's compile (3.6 s of CPU, 1.2 s
// without it: docs/test-time.md, session 9). Hand-written, they accept exactly what these did:
//   a fence line       ^(```+)\s*([A-Za-z0-9_+\-]*)(.*)$      (regex_match; `.` matches neither \n nor \r)
//   an include attr    (?:^|\s)include=([^\s#]+)#([A-Za-z0-9_\-]+)(?:\s|$)      (regex_search, leftmost match)
// Each group is greedy and no backtracking could split a line otherwise, so the greedy scan is the match.
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }
bool is_word(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

struct Fence {
    std::string fence, lang, rest;
};

std::optional<Fence> open_fence(const std::string& line) {
    std::size_t i = 0;
    while (i < line.size() && line[i] == '`') ++i;
    if (i < 3) return std::nullopt;
    Fence f{line.substr(0, i), "", ""};
    while (i < line.size() && is_space(line[i])) ++i;
    const std::size_t lang = i;
    while (i < line.size() && (is_word(line[i]) || line[i] == '+')) ++i;
    f.lang = line.substr(lang, i - lang);
    f.rest = line.substr(i);
    if (f.rest.find_first_of("\r\n") != std::string::npos) return std::nullopt;
    return f;
}

struct IncludeAttr {
    std::string source, anchor;
};

std::optional<IncludeAttr> include_attr(const std::string& rest) {
    const std::string key = "include=";
    for (std::size_t at = rest.find(key); at != std::string::npos; at = rest.find(key, at + 1)) {
        if (at > 0 && !is_space(rest[at - 1])) continue;
        std::size_t i = at + key.size();
        const std::size_t source = i;
        while (i < rest.size() && !is_space(rest[i]) && rest[i] != '#') ++i;
        if (i == source || i == rest.size() || rest[i] != '#') continue;
        const std::size_t anchor = ++i;
        while (i < rest.size() && is_word(rest[i])) ++i;
        if (i == anchor || (i < rest.size() && !is_space(rest[i]))) continue;
        return IncludeAttr{rest.substr(source, anchor - 1 - source), rest.substr(anchor, i - anchor)};
    }
    return std::nullopt;
}

// Languages whose blocks show project code and so must be included.
bool is_code_language(const std::string& lang) {
    return lang == "c++" || lang == "cpp" || lang == "cuda" || lang == "c" || lang == "cu";
}

}  // namespace

std::string extract_anchor(const std::string& text, const std::string& anchor, const std::string& label) {
    const auto lines = split_lines(text);
    int begin = -1, end = -1;
    for (int i = 0; i < static_cast<int>(lines.size()); ++i) {
        std::string name;
        if (anchor_line(lines[i], "ANCHOR", &name) && name == anchor) {
            if (begin >= 0)
                throw std::runtime_error(label + ":" + std::to_string(i + 1) + ": anchor " + anchor +
                                         " is opened a second time");
            begin = i + 1;
        } else if (anchor_line(lines[i], "ANCHOR_END", &name) && name == anchor && begin >= 0 && end < 0) {
            end = i;
        }
    }
    if (begin < 0) throw std::runtime_error(label + ": no anchor `// ANCHOR: " + anchor + "`");
    if (end < 0)
        throw std::runtime_error(label + ": anchor " + anchor + " is never closed (`// ANCHOR_END: " + anchor + "`)");
    std::vector<std::string> body;
    for (int i = begin; i < end; ++i)
        if (!anchor_line(lines[i], "ANCHOR", nullptr) && !anchor_line(lines[i], "ANCHOR_END", nullptr))
            body.push_back(lines[i]);
    std::size_t indent = std::string::npos;
    for (const auto& l : body)
        if (!trim(l).empty()) indent = std::min(indent, l.find_first_not_of(' '));
    if (indent == std::string::npos) throw std::runtime_error(label + ": anchor " + anchor + " is empty");
    std::string out;
    for (const auto& l : body) out += (trim(l).empty() ? "" : l.substr(indent)) + "\n";
    return out;
}

std::vector<std::string> anchors_inside_blanks(const std::string& text, const std::string& label) {
    std::vector<std::string> out;
    // The blanks as the grader's own marker code reads them (lesson/markers.hpp): a block blank's code is the lines
    // between its markers, the first one just below the marker's line.
    for (const auto& b : workbook::lesson::strip_markers(text, label).blanks) {
        if (!b.block) continue;
        const auto lines = split_lines(b.code);
        for (std::size_t k = 0; k < lines.size(); ++k)
            if (anchor_line(lines[k], "ANCHOR", nullptr) || anchor_line(lines[k], "ANCHOR_END", nullptr))
                out.push_back(label + ":" + std::to_string(b.line + 1 + static_cast<int>(k)) +
                              ": an anchor inside a blank");
    }
    return out;
}

Rendered render(const std::string& markdown, const std::string& label, const std::filesystem::path& root) {
    Rendered r;
    const auto lines = split_lines(markdown);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const auto opened = open_fence(lines[i]);
        if (!opened) {
            r.text += lines[i] + "\n";
            continue;
        }
        const std::string &fence = opened->fence, &lang = opened->lang, &rest = opened->rest;
        std::size_t close = i + 1;
        while (close < lines.size() && trim(lines[close]) != fence) ++close;
        if (close == lines.size()) {
            r.problems.push_back(label + ":" + std::to_string(i + 1) + ": a code block that is never closed");
            for (; i < lines.size(); ++i) r.text += lines[i] + "\n";
            break;
        }
        r.text += lines[i] + "\n";
        const auto inc = include_attr(rest);
        if (!inc) {
            if (is_code_language(lang))
                r.problems.push_back(label + ":" + std::to_string(i + 1) + ": a " + lang +
                                     " block that is not included from a source (add include=<file>#<anchor>)");
            for (std::size_t k = i + 1; k <= close; ++k) r.text += lines[k] + "\n";
            i = close;
            continue;
        }
        Include include{static_cast<int>(i + 1), inc->source, inc->anchor};
        std::filesystem::path path = include.source;
        if (include.source.rfind("solutions/", 0) == 0) {
            r.problems.push_back(label + ":" + std::to_string(i + 1) + ": " + include.source +
                                 ": blocks are included from starters and examples, never from solutions");
        } else {
            r.text += extract_anchor(starter_or_source(root, include.source), include.anchor, include.source);
        }
        r.text += lines[close] + "\n";
        r.includes.push_back(include);
        i = close;
    }
    return r;
}

}  // namespace lesson_code
