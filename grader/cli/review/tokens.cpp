#include "review/tokens.hpp"

#include <cxxlex/cxxlex.hpp>

namespace workbook::review {
namespace {

// `#include <x.h> // why` and `#include  <x.h>` must compare equal, so a directive is compared by its own tokens.
std::string normalize_directive(const std::string& text) {
    std::string body = text.substr(text.find('#') + 1);
    std::string out = "#";
    for (const auto& t : cxxlex::significant(cxxlex::lex(body))) {
        if (t.text == "\\") continue;  // a line continuation is layout, not content
        out += " " + t.text;
    }
    return out;
}

}  // namespace

std::vector<Tok> code_tokens(const std::string& source) {
    std::vector<Tok> out;
    for (const auto& t : cxxlex::significant(cxxlex::lex(source))) {
        Tok k;
        k.text = t.kind == cxxlex::Kind::preprocessor ? normalize_directive(t.text) : t.text;
        k.line = t.line;
        k.begin = t.offset;
        k.end = t.offset + t.text.size();
        out.push_back(std::move(k));
    }
    return out;
}

std::vector<Tok> comment_tokens(const std::string& source) {
    std::vector<Tok> out;
    for (const auto& t : cxxlex::lex(source)) {
        if (t.kind != cxxlex::Kind::comment) continue;
        out.push_back({t.text, t.line, t.offset, t.offset + t.text.size()});
    }
    return out;
}

std::vector<std::string> pristine_blank_ids(const std::string& starter) {
    std::vector<std::string> ids;
    for (const auto& t : code_tokens(starter)) {
        if (!t.is_blank()) continue;
        std::string line = line_text(starter, t.line);
        std::string id;
        auto at = line.find("// blank:");
        if (at != std::string::npos) {
            id = line.substr(at + 9);
            id.erase(0, id.find_first_not_of(' '));
            id = id.substr(0, id.find_first_of(" \t"));
        }
        ids.push_back(id);
    }
    return ids;
}

std::string line_text(const std::string& source, int line) {
    std::size_t pos = 0;
    for (int l = 1; l < line; ++l) {
        pos = source.find('\n', pos);
        if (pos == std::string::npos) return "";
        ++pos;
    }
    std::size_t end = source.find('\n', pos);
    std::string s = source.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    std::size_t b = s.find_first_not_of(" \t");
    if (b == std::string::npos) return "";
    std::size_t e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
}

}  // namespace workbook::review
