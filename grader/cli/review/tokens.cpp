#include "review/tokens.hpp"

#include <algorithm>

#include <cxxlex/cxxlex.hpp>

#include "lesson/markers.hpp"

namespace workbook::review {
namespace {

constexpr const char* kBlankToken = lesson::kBlank;

cxxlex::Options compiler_view() {
    cxxlex::Options o;
    o.spliced = true;  // translation phase 2, as the compiler performs it
    return o;
}

// The compiler reads `<%` as `{` and `and` as `&&` (C++17 [lex.digraph]); compared in one spelling, a fill cannot
// close a brace the edit check did not see, and a starter line respelled with digraphs is not an edit.
std::string usual_spelling(const std::string& t) {
    static const std::pair<const char*, const char*> kAlternatives[] = {
        {"<%", "{"},    {"%>", "}"},      {"<:", "["},     {":>", "]"},      {"%:", "#"},      {"%:%:", "##"},
        {"and", "&&"},  {"or", "||"},     {"not", "!"},    {"bitand", "&"},  {"bitor", "|"},   {"xor", "^"},
        {"compl", "~"}, {"and_eq", "&="}, {"or_eq", "|="}, {"xor_eq", "^="}, {"not_eq", "!="},
    };
    for (const auto& [alt, usual] : kAlternatives)
        if (t == alt) return usual;
    return t;
}

// `#include <x.h> // why` and `#include  <x.h>` must compare equal, so a directive is compared by its own tokens.
std::string normalize_directive(const std::string& text) {
    const std::size_t body_at = text.rfind("%:", 0) == 0 ? 2 : 1;  // the lexer starts a directive at '#' or '%:'
    std::string out = "#";
    for (const auto& t : cxxlex::significant(cxxlex::lex(text.substr(body_at), compiler_view()))) {
        if (t.text == "\\") continue;  // a line continuation is layout, not content
        out += " " + usual_spelling(t.text);
    }
    return out;
}

}  // namespace

std::vector<Tok> code_tokens(const std::string& source) {
    std::vector<Tok> out;
    for (const auto& t : cxxlex::significant(cxxlex::lex(source, compiler_view()))) {
        Tok k;
        k.text = t.kind == cxxlex::Kind::preprocessor ? normalize_directive(t.text) : usual_spelling(t.text);
        // `and` read as `&&` is an operator, not a keyword.
        k.kind = t.kind == cxxlex::Kind::keyword && k.text != t.text ? cxxlex::Kind::punct : t.kind;
        k.line = t.line;
        k.begin = t.offset;
        k.end = t.offset + t.length;
        out.push_back(std::move(k));
    }
    return out;
}

std::vector<Tok> comment_tokens(const std::string& source) {
    std::vector<Tok> out;
    for (const auto& t : cxxlex::lex(source, compiler_view())) {
        if (t.kind != cxxlex::Kind::comment) continue;
        out.push_back({t.text, t.kind, t.line, t.offset, t.offset + t.length});
    }
    return out;
}

std::vector<Tok> pattern_tokens(const std::string& starter) {
    std::vector<Tok> toks = code_tokens(starter);
    const auto regions = lesson::starter_regions(starter, "the starter");
    if (regions.empty()) return toks;
    std::vector<Tok> out;
    std::size_t r = 0;
    for (std::size_t i = 0; i < toks.size();) {
        while (r < regions.size() && regions[r].close_line < toks[i].line) {
            // A region with no code (the fix adds lines) is a wildcard too: it stands before the next token.
            out.push_back(
                {kBlankToken, cxxlex::Kind::identifier, regions[r].open_line, toks[i].begin, toks[i].begin, true});
            ++r;
        }
        if (r < regions.size() && toks[i].line > regions[r].open_line) {
            Tok w{kBlankToken, cxxlex::Kind::identifier, regions[r].open_line, toks[i].begin, toks[i].end, true};
            while (i < toks.size() && toks[i].line < regions[r].close_line) w.end = toks[i++].end;
            out.push_back(w);
            ++r;
            continue;
        }
        out.push_back(toks[i++]);
    }
    for (; r < regions.size(); ++r) {
        const std::size_t at = starter.size();
        out.push_back({kBlankToken, cxxlex::Kind::identifier, regions[r].open_line, at, at, true});
    }
    return out;
}

std::vector<std::string> pristine_blank_ids(const std::string& starter) {
    std::vector<std::string> ids;
    for (const auto& t : pattern_tokens(starter)) {
        if (!t.is_blank()) continue;
        const std::string line = line_text(starter, t.line);
        std::string id;
        for (const std::string tag : {"// blank:", "// fix:"}) {
            const auto at = line.find(tag);
            if (at == std::string::npos) continue;
            id = line.substr(at + tag.size());
            id.erase(0, id.find_first_not_of(' '));
            id = id.substr(0, id.find_first_of(" \t"));
            break;
        }
        ids.push_back(id);
    }
    return ids;
}

bool among(std::string_view word, std::initializer_list<std::string_view> list) {
    return std::find(list.begin(), list.end(), word) != list.end();
}

std::string code_quoted(std::string s) {
    for (char& c : s)
        if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    if (s.size() > 60) s = s.substr(0, 57) + "...";
    return "`" + s + "`";
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
