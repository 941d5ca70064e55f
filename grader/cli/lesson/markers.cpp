#include "lesson/markers.hpp"

#include <cctype>

#include "util/util.hpp"
#include "util/errors.hpp"

namespace workbook::lesson {

using util::UserError;
namespace {

constexpr const char* kInlineOpen = "/*BLANK:";
constexpr const char* kInlineClose = "/*END*/";
constexpr const char* kBlockOpen = "// BLANK:";
constexpr const char* kBlockClose = "// END BLANK";
constexpr const char* kStarterOpen = "// STARTER";
constexpr const char* kStarterLine = "//>";
// What the starter shows around a fix region; starter_regions reads the same strings back.
constexpr const char* kFixOpen = "// fix: ";
constexpr const char* kFixOpenNote = " (edit only down to 'end fix')";
constexpr const char* kFixClose = "// end fix";

bool valid_id(const std::string& id) {
    if (id.empty()) return false;
    for (unsigned char c : id)
        if (!(std::isalnum(c) || c == '_' || c == '-')) return false;
    return true;
}

[[noreturn]] void fail(const std::string& label, int line, const std::string& what) {
    throw UserError(label + ":" + std::to_string(line) + ": " + what);
}

std::vector<std::string> split_lines(const std::string& text, bool& trailing_newline) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t nl = text.find('\n', start);
        if (nl == std::string::npos) {
            lines.push_back(text.substr(start));
            start = text.size();
            trailing_newline = false;
            return lines;
        }
        lines.push_back(text.substr(start, nl - start));
        start = nl + 1;
    }
    trailing_newline = true;
    return lines;
}

// The starter's text of a block: `______` for a blank; for a fix region its own lines between the two comments that
// starter_regions reads back.
std::string starter_block(const MarkedBlank& b, const std::string& indent) {
    if (!b.fix) return indent + kBlank + "  // blank: " + b.id + "\n";
    return indent + kFixOpen + b.id + kFixOpenNote + "\n" + b.starter + indent + kFixClose + "\n";
}

// A fix region's starter line `<indent>//> code` as `<indent>code` (`//>` alone is an empty line).
std::string starter_line(const std::string& line, const std::string& label, int lineno) {
    const std::size_t at = line.find(kStarterLine);
    if (at == std::string::npos || line.find_first_not_of(" \t") != at)
        fail(label, lineno,
             "after '// STARTER' every line of the block is the starter's, written '//> code', up to '// END BLANK'.");
    std::string rest = line.substr(at + std::string(kStarterLine).size());
    if (!rest.empty() && rest[0] == ' ') rest.erase(0, 1);
    return rest.empty() ? std::string() : line.substr(0, at) + rest;
}

// to_starter: every blank becomes `______` and every fix region its starter lines; otherwise a blank keeps its
// solution text unless `fills` names it. Block text is written when the block closes, once its kind is known.
Converted convert(const std::string& solution, const std::string& label, bool to_starter,
                  const std::map<std::string, std::string>& fills = {}) {
    bool trailing_newline = true;
    std::vector<std::string> lines = split_lines(solution, trailing_newline);
    Converted out;
    std::string body;
    bool in_block = false, in_starter = false;
    int block_line = 0;
    std::string block_indent;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const int lineno = static_cast<int>(i) + 1;
        const std::string& line = lines[i];
        const std::string t = util::trim(line);
        if (t.rfind(kBlockOpen, 0) == 0) {
            if (in_block)
                fail(label, lineno,
                     "a block blank opens inside the block blank opened on line " + std::to_string(block_line) + ".");
            std::string id = util::trim(t.substr(std::string(kBlockOpen).size()));
            if (!valid_id(id)) fail(label, lineno, "blank id '" + id + "' must be letters, digits, '_' or '-'.");
            in_block = true;
            in_starter = false;
            block_line = lineno;
            out.blanks.push_back({id, lineno, true});
            block_indent = line.substr(0, line.find_first_not_of(" \t"));
            continue;
        }
        if (t == kBlockClose) {
            if (!in_block) fail(label, lineno, "'// END BLANK' without an opening '// BLANK:<id>'.");
            const MarkedBlank& b = out.blanks.back();
            if (to_starter) body += starter_block(b, block_indent);
            else if (auto f = fills.find(b.id); f != fills.end()) body += block_indent + f->second + "\n";
            else body += b.code;
            in_block = in_starter = false;
            continue;
        }
        if (t == kStarterOpen) {
            if (!in_block) fail(label, lineno, "'// STARTER' outside a block blank.");
            if (in_starter)
                fail(label, lineno,
                     "a second '// STARTER' in the block blank of line " + std::to_string(block_line) + ".");
            in_starter = true;
            out.blanks.back().fix = true;
            continue;
        }
        if (in_block) {
            if (line.find(kInlineOpen) != std::string::npos)
                fail(label, lineno, "an inline blank inside a block blank.");
            if (in_starter) out.blanks.back().starter += starter_line(line, label, lineno) + "\n";
            else out.blanks.back().code += line + "\n";
            continue;
        }
        std::string rewritten;
        std::size_t pos = 0;
        while (true) {
            std::size_t open = line.find(kInlineOpen, pos);
            std::size_t stray = line.find(kInlineClose, pos);
            if (stray != std::string::npos && (open == std::string::npos || stray < open))
                fail(label, lineno, "'/*END*/' without an opening '/*BLANK:<id>*/'.");
            if (open == std::string::npos) {
                rewritten += line.substr(pos);
                break;
            }
            std::size_t id_start = open + std::string(kInlineOpen).size();
            std::size_t id_end = line.find("*/", id_start);
            if (id_end == std::string::npos) fail(label, lineno, "unterminated '/*BLANK:' marker.");
            std::string id = line.substr(id_start, id_end - id_start);
            if (!valid_id(id)) fail(label, lineno, "blank id '" + id + "' must be letters, digits, '_' or '-'.");
            std::size_t content_start = id_end + 2;
            std::size_t close = line.find(kInlineClose, content_start);
            if (close == std::string::npos)
                fail(label, lineno, "inline blank '" + id + "' has no '/*END*/' on the same line.");
            std::string content = line.substr(content_start, close - content_start);
            if (content.find(kInlineOpen) != std::string::npos) fail(label, lineno, "inline blanks cannot be nested.");
            out.blanks.push_back({id, lineno, false, content});
            rewritten += line.substr(pos, open - pos);
            auto f = fills.find(id);
            rewritten += to_starter ? std::string(kBlank) : f != fills.end() ? f->second : content;
            pos = close + std::string(kInlineClose).size();
        }
        body += rewritten + "\n";
    }
    if (in_block) fail(label, block_line, "block blank is never closed with '// END BLANK'.");
    if (!trailing_newline && !body.empty()) body.pop_back();
    out.text = std::move(body);
    return out;
}

}  // namespace

Converted make_starter(const std::string& solution, const std::string& label) { return convert(solution, label, true); }

Converted strip_markers(const std::string& solution, const std::string& label) {
    return convert(solution, label, false);
}

Converted fill_blanks(const std::string& solution, const std::map<std::string, std::string>& fills,
                      const std::string& label) {
    return convert(solution, label, false, fills);
}

std::vector<FixRegion> starter_regions(const std::string& starter, const std::string& label) {
    bool trailing_newline = true;
    const std::vector<std::string> lines = split_lines(starter, trailing_newline);
    std::vector<FixRegion> out;
    bool open = false;
    const std::string opener = util::trim(kFixOpen);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const int lineno = static_cast<int>(i) + 1;
        const std::string t = util::trim(lines[i]);
        if (t.rfind(opener, 0) == 0) {
            if (open)
                fail(label, lineno,
                     "a fix region opens inside the one opened on line " + std::to_string(out.back().open_line) + ".");
            std::string id = util::trim(t.substr(opener.size()));
            id = id.substr(0, id.find_first_of(" \t"));
            if (!valid_id(id)) fail(label, lineno, "fix region id '" + id + "' must be letters, digits, '_' or '-'.");
            out.push_back({id, lineno, 0});
            open = true;
        } else if (t == kFixClose) {
            if (!open) fail(label, lineno, "'// end fix' without an opening '// fix: <id>'.");
            out.back().close_line = lineno;
            open = false;
        }
    }
    if (open)
        fail(label, out.back().open_line, "fix region '" + out.back().id + "' is never closed with '// end fix'.");
    return out;
}

}  // namespace workbook::lesson
