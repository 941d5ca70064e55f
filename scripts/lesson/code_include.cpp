#include "code_include.hpp"

#include "lesson/markers.hpp"
#include "util/files.hpp"
#include "util/util.hpp"

#include <fstream>
#include <regex>
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
    static const std::regex open_fence(R"(^(```+)\s*([A-Za-z0-9_+\-]*)(.*)$)");
    static const std::regex include_attr(R"((?:^|\s)include=([^\s#]+)#([A-Za-z0-9_\-]+)(?:\s|$))");
    Rendered r;
    const auto lines = split_lines(markdown);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        std::smatch m;
        if (!std::regex_match(lines[i], m, open_fence)) {
            r.text += lines[i] + "\n";
            continue;
        }
        const std::string fence = m[1].str(), lang = m[2].str(), rest = m[3].str();
        std::size_t close = i + 1;
        while (close < lines.size() && trim(lines[close]) != fence) ++close;
        if (close == lines.size()) {
            r.problems.push_back(label + ":" + std::to_string(i + 1) + ": a code block that is never closed");
            for (; i < lines.size(); ++i) r.text += lines[i] + "\n";
            break;
        }
        r.text += lines[i] + "\n";
        std::smatch inc;
        if (!std::regex_search(rest, inc, include_attr)) {
            if (is_code_language(lang))
                r.problems.push_back(label + ":" + std::to_string(i + 1) + ": a " + lang +
                                     " block that is not included from a source (add include=<file>#<anchor>)");
            for (std::size_t k = i + 1; k <= close; ++k) r.text += lines[k] + "\n";
            i = close;
            continue;
        }
        Include include{static_cast<int>(i + 1), inc[1].str(), inc[2].str()};
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
