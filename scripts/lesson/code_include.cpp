#include "code_include.hpp"

#include "lesson/markers.hpp"

#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace lesson_code {
namespace {

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    return lines;
}

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t");
    if (b == std::string::npos) return "";
    return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

bool anchor_line(const std::string& line, const char* kind, std::string* name) {
    const std::string t = trim(line);
    const std::string prefix = std::string("// ") + kind + ": ";
    if (t.rfind(prefix, 0) != 0) return false;
    if (name) *name = trim(t.substr(prefix.size()));
    return true;
}

std::string read_source(const std::filesystem::path& p) {
    std::ifstream in(p);
    if (!in) throw std::runtime_error("cannot read " + p.string());
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

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
            if (begin >= 0) throw std::runtime_error(label + ":" + std::to_string(i + 1) + ": anchor " + anchor +
                                                     " is opened a second time");
            begin = i + 1;
        } else if (anchor_line(lines[i], "ANCHOR_END", &name) && name == anchor && begin >= 0 && end < 0) {
            end = i;
        }
    }
    if (begin < 0) throw std::runtime_error(label + ": no anchor `// ANCHOR: " + anchor + "`");
    if (end < 0) throw std::runtime_error(label + ": anchor " + anchor + " is never closed (`// ANCHOR_END: " + anchor + "`)");
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
    const auto lines = split_lines(text);
    bool in_blank = false;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string t = trim(lines[i]);
        if (t.rfind("// BLANK:", 0) == 0) in_blank = true;
        if (t == "// END BLANK") in_blank = false;
        if (in_blank && (anchor_line(lines[i], "ANCHOR", nullptr) || anchor_line(lines[i], "ANCHOR_END", nullptr)))
            out.push_back(label + ":" + std::to_string(i + 1) + ": an anchor inside a blank");
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
