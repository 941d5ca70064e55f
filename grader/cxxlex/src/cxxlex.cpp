#include "cxxlex/cxxlex.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace cxxlex {

namespace {

bool ident_start(unsigned char c) { return std::isalpha(c) || c == '_' || c >= 0x80; }
bool ident_char(unsigned char c) { return std::isalnum(c) || c == '_' || c >= 0x80; }

// Longest first, so the first match is the longest one.
constexpr std::array<std::string_view, 28> kMultiPunct = {
    "%:%:", "<<<", ">>>", "<<=", ">>=", "<=>", "->*", "...", "::", "->", "++", "--", "<<", ">>",
    "<=",   ">=",  "==",  "!=",  "&&",  "||",  "+=",  "-=",  "*=", "/=", "%=", "&=", "|=", "^=",
};
// Two-character punctuators that start no longer one, digraphs among them (the compiler reads <% as {).
constexpr std::array<std::string_view, 7> kMorePunct = {".*", "##", "%:", "<%", "%>", "<:", ":>"};

bool is_blank_byte(char c) { return c == ' ' || c == '\t' || c == '\f' || c == '\v'; }

// A carriage return that no line feed follows (an old Mac line end) ends a line for GCC (translation phase 1) as
// "\r\n" and "\n" do; read as a blank, it would let a `//` comment run on over code the compiler sees.
bool lone_cr(std::string_view s, std::size_t i) { return s[i] == '\r' && (i + 1 == s.size() || s[i + 1] != '\n'); }

// Length of a line splice at i as GCC reads it: a backslash, optional blanks, a line end of any of the three kinds
// (0 if none).
std::size_t splice_at(std::string_view s, std::size_t i) {
    if (i >= s.size() || s[i] != '\\') return 0;
    std::size_t j = i + 1;
    while (j < s.size() && is_blank_byte(s[j])) ++j;
    if (j < s.size() && s[j] == '\n') return j + 1 - i;
    if (j + 1 < s.size() && s[j] == '\r' && s[j + 1] == '\n') return j + 2 - i;
    if (j < s.size() && lone_cr(s, j)) return j + 1 - i;
    return 0;
}

// GCC skips a UTF-8 byte order mark at the start of a file (editors on Windows write one).
constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

class Lexer {
 public:
    Lexer(std::string_view s, const Options& o) : src_(s), opt_(o) {}
    // Lexing spliced text: `physical` is the input and map[k] the input offset of spliced byte k (map.back() is the
    // input's size), so that raw strings can be delimited on the input, where the splices inside them still stand.
    Lexer(std::string_view s, const Options& o, std::string_view physical, const std::vector<std::size_t>* map)
        : src_(s), opt_(o), physical_(physical), map_(map) {}

    std::vector<Token> run() {
        while (pos_ < src_.size()) step();
        return std::move(out_);
    }

 private:
    std::string_view src_;
    Options opt_;
    std::string_view physical_;
    const std::vector<std::size_t>* map_ = nullptr;
    std::size_t pos_ = 0;
    int line_ = 1, col_ = 1;
    bool at_line_start_ = true;  // only whitespace and comments since the last newline: a '#' starts a directive
    std::vector<Token> out_;

    char at(std::size_t i) const { return i < src_.size() ? src_[i] : '\0'; }

    // Length of a backslash-newline continuation at i (0 if none).
    std::size_t continuation(std::size_t i) const {
        if (at(i) != '\\') return 0;
        if (at(i + 1) == '\n') return 2;
        if (at(i + 1) == '\r' && at(i + 2) == '\n') return 3;
        return 0;
    }

    void emit(Kind k, std::size_t end) {
        Token t{k, std::string(src_.substr(pos_, end - pos_)), line_, col_, pos_, end - pos_};
        for (char c : t.text) {
            if (c == '\n') {
                ++line_;
                col_ = 1;
            } else {
                ++col_;
            }
        }
        pos_ = end;
        if (k == Kind::newline) at_line_start_ = true;
        else if (k != Kind::whitespace && k != Kind::comment) at_line_start_ = false;
        out_.push_back(std::move(t));
    }

    std::size_t block_comment_end(std::size_t i) const {  // i at "/*"
        std::size_t e = src_.find("*/", i + 2);
        return e == std::string_view::npos ? src_.size() : e + 2;
    }

    std::size_t line_comment_end(std::size_t i) const {  // stops before the newline; continuations extend it
        while (i < src_.size()) {
            if (std::size_t c = continuation(i)) {
                i += c;
                continue;
            }
            if (src_[i] == '\n' || (src_[i] == '\r' && at(i + 1) == '\n')) break;
            ++i;
        }
        return i;
    }

    std::size_t directive_end(std::size_t i) const {
        while (i < src_.size()) {
            if (std::size_t c = continuation(i)) {
                i += c;
                continue;
            }
            if (src_[i] == '/' && at(i + 1) == '*') {
                i = block_comment_end(i);
                continue;
            }
            if (src_[i] == '/' && at(i + 1) == '/') return line_comment_end(i);
            if (src_[i] == '"' || src_[i] == '\'') {
                i = quoted_end(i, src_[i]);
                continue;
            }
            if (src_[i] == '\n' || (src_[i] == '\r' && at(i + 1) == '\n')) break;
            ++i;
        }
        return i;
    }

    // i at the opening quote; returns one past the closing quote (or the end of the line if unterminated).
    std::size_t quoted_end(std::size_t i, char q) const {
        ++i;
        while (i < src_.size()) {
            if (std::size_t c = continuation(i)) {
                i += c;
                continue;
            }
            char c = src_[i];
            if (c == '\\') {
                i += 2;
                continue;
            }
            if (c == q) return i + 1;
            if (c == '\n') return i;
            ++i;
        }
        return src_.size();
    }

    // i at 'R' of R"delim( … )delim"; returns one past the closing quote.
    std::size_t raw_string_end(std::size_t i) const {
        std::size_t open = src_.find('(', i + 2);
        if (open == std::string_view::npos) return src_.size();
        std::string close = ")" + std::string(src_.substr(i + 2, open - i - 2)) + "\"";
        if (map_) {
            // Phase 2 is reverted inside a raw string: `)d\<newline>"` does not close it, so look for the end in the input.
            std::size_t pe = physical_.find(close, (*map_)[open] + 1);
            if (pe == std::string_view::npos) return src_.size();
            return static_cast<std::size_t>(std::lower_bound(map_->begin(), map_->end(), pe + close.size()) -
                                            map_->begin());
        }
        std::size_t e = src_.find(close, open + 1);
        return e == std::string_view::npos ? src_.size() : e + close.size();
    }

    std::size_t ud_suffix_end(std::size_t i) const {
        if (ident_start(static_cast<unsigned char>(at(i)))) {
            while (ident_char(static_cast<unsigned char>(at(i)))) ++i;
        }
        return i;
    }

    // Length of an encoding prefix (u8, u, U, L) followed by R? and a quote, or 0.
    bool literal_prefix(std::size_t i, std::size_t* prefix_len, bool* raw, char* quote) const {
        std::size_t j = i;
        if (at(j) == 'u' && at(j + 1) == '8') j += 2;
        else if (at(j) == 'u' || at(j) == 'U' || at(j) == 'L') j += 1;
        *raw = false;
        if (at(j) == 'R' && at(j + 1) == '"') {
            *raw = true;
            ++j;
        }
        if (at(j) == '"' || (at(j) == '\'' && !*raw)) {
            *prefix_len = j - i;
            *quote = at(j);
            return true;
        }
        return false;
    }

    void step() {
        char c = src_[pos_];
        if (c == '\n') return emit(Kind::newline, pos_ + 1);
        if (c == '\r' && at(pos_ + 1) == '\n') return emit(Kind::newline, pos_ + 2);
        if (std::size_t n = continuation(pos_)) return emit(Kind::whitespace, pos_ + n);
        if (c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r') {
            std::size_t e = pos_;
            while (e < src_.size() && (src_[e] == ' ' || src_[e] == '\t' || src_[e] == '\f' || src_[e] == '\v' ||
                                       (src_[e] == '\r' && at(e + 1) != '\n')))
                ++e;
            return emit(Kind::whitespace, e);
        }
        if (c == '/' && at(pos_ + 1) == '/') return emit(Kind::comment, line_comment_end(pos_));
        if (c == '/' && at(pos_ + 1) == '*') return emit(Kind::comment, block_comment_end(pos_));
        if ((c == '#' || (c == '%' && at(pos_ + 1) == ':')) && at_line_start_)
            return emit(Kind::preprocessor, directive_end(pos_));

        std::size_t plen;
        bool raw;
        char quote;
        if ((c == '"' || c == '\'' || c == 'u' || c == 'U' || c == 'L' || c == 'R') &&
            literal_prefix(pos_, &plen, &raw, &quote)) {
            std::size_t e = raw ? raw_string_end(pos_ + plen - 1) : quoted_end(pos_ + plen, quote);
            return emit(quote == '"' ? Kind::string : Kind::character, ud_suffix_end(e));
        }
        if (ident_start(static_cast<unsigned char>(c))) {
            std::size_t e = pos_;
            while (e < src_.size() && ident_char(static_cast<unsigned char>(src_[e]))) ++e;
            return emit(is_keyword(src_.substr(pos_, e - pos_)) ? Kind::keyword : Kind::identifier, e);
        }
        if (std::isdigit(static_cast<unsigned char>(c)) ||
            (c == '.' && std::isdigit(static_cast<unsigned char>(at(pos_ + 1))))) {
            std::size_t e = pos_ + 1;
            while (e < src_.size()) {
                char d = src_[e];
                if ((d == '+' || d == '-') && (std::tolower(static_cast<unsigned char>(src_[e - 1])) == 'e' ||
                                               std::tolower(static_cast<unsigned char>(src_[e - 1])) == 'p')) {
                    ++e;
                } else if (d == '\'' && std::isalnum(static_cast<unsigned char>(at(e + 1)))) {
                    e += 2;
                } else if (std::isalnum(static_cast<unsigned char>(d)) || d == '_' || d == '.') {
                    ++e;
                } else {
                    break;
                }
            }
            return emit(Kind::number, e);
        }
        // C++11 [lex.pptoken]: "<::" not followed by ':' or '>' is '<' then '::' (so std::vector<::T> works), not "<:" ':'.
        if (src_.substr(pos_, 3) == "<::" && at(pos_ + 3) != ':' && at(pos_ + 3) != '>')
            return emit(Kind::punct, pos_ + 1);
        for (std::string_view p : kMultiPunct) {
            if (!opt_.cuda_launch_brackets && (p == "<<<" || p == ">>>")) continue;
            if (src_.substr(pos_, p.size()) == p) return emit(Kind::punct, pos_ + p.size());
        }
        for (std::string_view p : kMorePunct) {
            if (src_.substr(pos_, p.size()) == p) return emit(Kind::punct, pos_ + p.size());
        }
        if (std::string_view("{}[]()<>;:,.?~!+-*/%^&|=#").find(c) != std::string_view::npos) {
            return emit(Kind::punct, pos_ + 1);
        }
        emit(Kind::other, pos_ + 1);
    }
};

}  // namespace

const char* kind_name(Kind k) {
    switch (k) {
        case Kind::identifier: return "identifier";
        case Kind::keyword: return "keyword";
        case Kind::number: return "number";
        case Kind::string: return "string";
        case Kind::character: return "character";
        case Kind::punct: return "punct";
        case Kind::preprocessor: return "preprocessor";
        case Kind::comment: return "comment";
        case Kind::whitespace: return "whitespace";
        case Kind::newline: return "newline";
        case Kind::other: return "other";
    }
    return "?";
}

bool is_keyword(std::string_view w) {
    static constexpr std::string_view kKeywords[] = {"alignas",      "alignof",   "and",
                                                     "and_eq",       "asm",       "auto",
                                                     "bitand",       "bitor",     "bool",
                                                     "break",        "case",      "catch",
                                                     "char",         "char8_t",   "char16_t",
                                                     "char32_t",     "class",     "compl",
                                                     "const",        "constexpr", "const_cast",
                                                     "continue",     "decltype",  "default",
                                                     "delete",       "do",        "double",
                                                     "dynamic_cast", "else",      "enum",
                                                     "explicit",     "export",    "extern",
                                                     "false",        "float",     "for",
                                                     "friend",       "goto",      "if",
                                                     "inline",       "int",       "long",
                                                     "mutable",      "namespace", "new",
                                                     "noexcept",     "not",       "not_eq",
                                                     "nullptr",      "operator",  "or",
                                                     "or_eq",        "private",   "protected",
                                                     "public",       "register",  "reinterpret_cast",
                                                     "return",       "short",     "signed",
                                                     "sizeof",       "static",    "static_assert",
                                                     "static_cast",  "struct",    "switch",
                                                     "template",     "this",      "thread_local",
                                                     "throw",        "true",      "try",
                                                     "typedef",      "typeid",    "typename",
                                                     "union",        "unsigned",  "using",
                                                     "virtual",      "void",      "volatile",
                                                     "wchar_t",      "while",     "xor",
                                                     "xor_eq"};
    return std::find(std::begin(kKeywords), std::end(kKeywords), w) != std::end(kKeywords);
}

namespace {

// The raw string literal's own bytes in the input, from its first to its last byte (splices inside it kept).
bool is_raw_string(const Token& t) {
    const std::size_t q = t.text.find('"');
    return t.kind == Kind::string && q != std::string::npos && q > 0 && t.text[q - 1] == 'R';
}

std::vector<Token> lex_spliced(std::string_view source, const Options& options) {
    std::string spliced;
    std::vector<std::size_t> map;  // map[k]: input offset of spliced[k]; one more entry for the end
    spliced.reserve(source.size());
    map.reserve(source.size() + 1);
    // Phase 1 as GCC performs it: the byte order mark skipped (it belongs to the first token's range), a lone
    // carriage return read as a line feed. Then phase 2.
    for (std::size_t i = source.substr(0, 3) == kByteOrderMark ? 3 : 0; i < source.size();) {
        if (std::size_t n = splice_at(source, i)) {
            i += n;
            continue;
        }
        spliced.push_back(lone_cr(source, i) ? '\n' : source[i]);
        map.push_back(i);
        ++i;
    }
    map.push_back(source.size());
    std::vector<Token> tokens = Lexer(spliced, options, source, &map).run();
    std::vector<std::size_t> line_starts{0};
    for (std::size_t i = 0; i < source.size(); ++i)
        if (source[i] == '\n' || lone_cr(source, i)) line_starts.push_back(i + 1);
    for (std::size_t k = 0; k < tokens.size(); ++k) {
        Token& t = tokens[k];
        const std::size_t last = t.offset + t.text.size() - 1;  // spliced offset of the token's last byte
        // The splices between two tokens belong to the earlier one, so the ranges tile the input.
        const std::size_t begin = k == 0 ? 0 : map[t.offset];
        const std::size_t end = k + 1 < tokens.size() ? map[tokens[k + 1].offset] : source.size();
        if (is_raw_string(t)) t.text = std::string(source.substr(map[t.offset], map[last] + 1 - map[t.offset]));
        const std::size_t first = map[t.offset];
        const auto line = std::upper_bound(line_starts.begin(), line_starts.end(), first) - line_starts.begin();
        t.line = static_cast<int>(line);
        t.column = static_cast<int>(first - line_starts[static_cast<std::size_t>(line) - 1] + 1);
        t.offset = begin;
        t.length = end - begin;
    }
    return tokens;
}

}  // namespace

std::vector<Token> lex(std::string_view source, const Options& options) {
    if (options.spliced) return lex_spliced(source, options);
    return Lexer(source, options).run();
}

std::vector<std::size_t> splice_offsets(std::string_view source) {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < source.size(); ++i)
        if (splice_at(source, i)) out.push_back(i);
    return out;
}

std::vector<Token> significant(const std::vector<Token>& tokens) {
    std::vector<Token> out;
    for (const Token& t : tokens) {
        if (t.kind != Kind::comment && t.kind != Kind::whitespace && t.kind != Kind::newline) out.push_back(t);
    }
    return out;
}

int newline_count(std::string_view text) { return static_cast<int>(std::count(text.begin(), text.end(), '\n')); }

int line_at(std::string_view source, std::size_t offset) {
    int line = 1;
    for (std::size_t i = 0; i < offset && i < source.size(); ++i) line += source[i] == '\n' || lone_cr(source, i);
    return line;
}

}  // namespace cxxlex
