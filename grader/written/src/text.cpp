#include "written/text.hpp"

#include <algorithm>

#include "written/formula.hpp"
#include "written/language.hpp"
#include "written/stem.hpp"

namespace workbook::written {
namespace {

bool ascii_alnum(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; }
bool ascii_digit(unsigned char c) { return c >= '0' && c <= '9'; }

// The code point at s[i] and its length in bytes; a malformed byte reads as one unknown code point.
std::pair<char32_t, std::size_t> decode(const std::string& s, std::size_t i) {
    const auto b = static_cast<unsigned char>(s[i]);
    std::size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 1;
    if (i + n > s.size()) return {0xFFFD, 1};
    char32_t cp = n == 1 ? b : n == 2 ? (b & 0x1F) : n == 3 ? (b & 0x0F) : (b & 0x07);
    for (std::size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    return {cp, n};
}

bool is_han(char32_t c) {
    return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0xF900 && c <= 0xFAFF);
}
bool ends_sentence_cjk(char32_t c) { return c == 0x3002 || c == 0xFF01 || c == 0xFF1F; }  // 。！？
bool ends_clause_cjk(char32_t c) {
    return c == 0xFF0C || c == 0x3001 || c == 0xFF1B || c == 0xFF1A || c == 0x2014 || c == 0x2013;  // ，、；：—–
}
bool separates_items_cjk(char32_t c) { return c == 0xFF0C || c == 0x3001 || c == 0xFF1B; }  // ，、；

class Reader {
 public:
    std::vector<Sentence> out;

    void read(const std::string& text) {
        const std::string s = canonical_formulas(text);
        begin_sentence();
        for (std::size_t i = 0; i < s.size();) {
            const auto c = static_cast<unsigned char>(s[i]);
            if (ascii_alnum(c)) {
                std::size_t j = i;
                while (j < s.size() && ascii_alnum(static_cast<unsigned char>(s[j]))) ++j;
                // A decimal number keeps its point: "8.46", "0.25".
                if (ascii_digit(c) && j + 1 < s.size() && s[j] == '.' &&
                    ascii_digit(static_cast<unsigned char>(s[j + 1]))) {
                    ++j;
                    while (j < s.size() && ascii_digit(static_cast<unsigned char>(s[j]))) ++j;
                }
                word(s.substr(i, j - i));
                i = j;
                continue;
            }
            if (c < 0x80) {
                const bool at_end = i + 1 >= s.size() || s[i + 1] == ' ' || s[i + 1] == '\n';
                // "t, t+256, ... in a register": an ellipsis does not end the sentence.
                const bool ellipsis = c == '.' && i > 0 && s[i - 1] == '.';
                if ((c == '.' || c == '!' || c == '?') && at_end && !ellipsis) end_sentence();
                else if (c == ',' || c == ';') new_item(), new_segment();
                else if (c == ':') new_segment();
                else if (c == '-' && i > 0 && i + 1 < s.size() && ascii_alnum(static_cast<unsigned char>(s[i - 1])) &&
                         ascii_alnum(static_cast<unsigned char>(s[i + 1])))
                    ;  // "re-reads", "all-zero": a hyphen inside a word separates its parts, it is no minus
                else if (std::string("/+*=()^<>%-").find(static_cast<char>(c)) != std::string::npos) {
                    push({std::string(1, static_cast<char>(c)), TokenKind::symbol});
                    run_ = 0;  // a formula's operators separate its names: "sqrt(sum / n)" is no run of terms
                }
                ++i;
                continue;
            }
            const auto [cp, n] = decode(s, i);
            if (is_han(cp)) {
                const std::string h = s.substr(i, n);
                if (ends_negation_scope(h)) new_segment();
                count_word(is_function_han(h), false);
                ++cur_.han;
                push({h, TokenKind::han});
            } else if (ends_sentence_cjk(cp)) {
                end_sentence();
            } else if (ends_clause_cjk(cp)) {
                if (separates_items_cjk(cp)) new_item();
                new_segment();
            }
            i += n;
        }
        end_sentence();
    }

 private:
    Sentence cur_;
    int item_words_ = 0;
    bool item_formula_ = false;  // the current item holds a number or an operator
    int run_ = 0;

    void begin_sentence() {
        cur_ = Sentence();
        item_words_ = 0;
        item_formula_ = false;
        run_ = 0;
    }
    void new_item() {
        if (item_words_ > 0) ++cur_.items;
        // "j = t, t + 256, ...": the commas of a formula separate no list entries.
        if (item_words_ > 0 && item_words_ <= 2 && !item_formula_) ++cur_.short_items;
        item_words_ = 0;
        item_formula_ = false;
    }
    void new_segment() {
        if (!cur_.tokens.empty() && cur_.tokens.back().segment == cur_.segments - 1) ++cur_.segments;
        run_ = 0;
    }
    void end_sentence() {
        new_item();
        if (!cur_.tokens.empty()) out.push_back(std::move(cur_));
        begin_sentence();
    }
    void count_word(bool function, bool latin_content) {
        ++cur_.words;
        ++item_words_;
        if (function) ++cur_.function_words;
        run_ = latin_content ? run_ + 1 : 0;
        cur_.longest_content_run = std::max(cur_.longest_content_run, run_);
    }
    void push(Token t) {
        t.segment = cur_.segments - 1;
        if (t.kind == TokenKind::number || t.kind == TokenKind::symbol) item_formula_ = true;
        cur_.tokens.push_back(std::move(t));
    }
    void word(const std::string& raw) {
        // Leading and trailing underscores carry no meaning: "__syncthreads" is the word "syncthreads".
        const std::size_t a = raw.find_first_not_of('_'), b = raw.find_last_not_of('_');
        if (a == std::string::npos) return;
        const std::string w = raw.substr(a, b - a + 1);
        if (std::all_of(w.begin(), w.end(), [](char c) { return ascii_digit(c) || c == '.'; })) {
            push({w, TokenKind::number});
            run_ = 0;
            return;
        }
        const bool plain = std::all_of(w.begin(), w.end(), [](char c) { return c >= 'a' && c <= 'z'; });
        if (plain && ends_negation_scope(w)) new_segment();
        const bool function = plain && is_function_word(w);
        count_word(function, plain && !function);
        if (plain && is_article(w)) return;
        // An indexed letter is its letter: "x_j", "w_i" are x and w.
        if (w.size() >= 3 && w[1] == '_' && w[0] >= 'a' && w[0] <= 'z' && w.find('_', 2) == std::string::npos) {
            push({w.substr(0, 1), TokenKind::word});
            return;
        }
        // An identifier ("sq_sum", "fp32", "3mn") is kept as written; a word is stemmed.
        push(plain ? Token{stem_english(w), TokenKind::word} : Token{w, TokenKind::ident});
    }
};

}  // namespace

std::vector<Sentence> read_sentences(const std::string& answer) {
    Reader r;
    r.read(answer);
    return std::move(r.out);
}

std::vector<Token> phrase_tokens(const std::string& phrase) {
    Reader r;
    r.read(phrase);
    std::vector<Token> all;
    for (auto& s : r.out)
        for (auto& t : s.tokens) all.push_back(std::move(t));
    return all;
}

std::size_t code_points(const std::string& s) {
    std::size_t n = 0;
    for (unsigned char c : s) n += (c & 0xC0) != 0x80;
    return n;
}

}  // namespace workbook::written
