// A small, loss-free C/C++ (and CUDA) tokenizer.
//
// Every byte of the input belongs to exactly one token, so concatenating the token texts gives the input back; tools
// that rewrite source (the emulator's rewriter) edit token ranges and keep everything else byte for byte, and tools
// that compare sources (the static review) filter out comments and whitespace.
//
// With Options::spliced the lexer reads what the compiler reads instead: translation phase 2 first (every
// backslash-newline removed, inside identifiers, comment markers and directives too), then tokens. Token texts are
// then the spliced spelling and no longer concatenate to the input; each token still covers a contiguous byte range
// of the input ([offset, offset + length)), and those ranges do.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace cxxlex {

enum class Kind {
    identifier,    // names, including CUDA's __global__, __shared__ …
    keyword,       // C++17 keywords and alternative operator spellings (and, or, not …)
    number,        // a preprocessing number: 42, 0x1F, 1.5e-3f, 1'000'000
    string,        // "…", u8"…", L"…", R"d(…)d", with any user-defined suffix
    character,     // 'a', u'a', L'\n'
    punct,         // operators and punctuators, longest match; <<< and >>> are single tokens when enabled; digraphs
                   // (<% %> <: :> %: %:%:) are single tokens spelled as written
    preprocessor,  // a whole directive from '#' (or '%:') to the end of its logical line (continuations and comments
                   // inside)
    comment,       // // … or /* … */
    whitespace,    // blanks, tabs, and backslash-newline continuations outside tokens
    newline,       // one '\n' (or "\r\n")
    other,         // a byte that starts no token (stray '\\', '@', '$', non-ASCII outside literals)
};

const char* kind_name(Kind k);

struct Token {
    Kind kind;
    std::string text;
    int line;            // 1-based line of the first byte
    int column;          // 1-based byte column of the first byte
    std::size_t offset;  // byte offset of the first byte
    std::size_t length;  // bytes of the input the token covers: text.size(), except with Options::spliced
};

struct Options {
    // CUDA launch brackets: lex "<<<" and ">>>" as single tokens. Whether a ">>>" closes a launch or three template
    // argument lists is left to the caller, which knows whether a "<<<" is open.
    bool cuda_launch_brackets = true;
    // Translation phase 2 as GCC performs it (and so nvcc, whose front end GCC's preprocessor feeds): a backslash
    // followed by optional blanks and a newline joins two lines wherever it stands, except inside a raw string
    // literal, where the standard reverts it. Trigraphs are not replaced: GCC and nvcc ignore them in C++17.
    bool spliced = false;
};

// Never fails: unterminated comments or literals end at the end of the input.
std::vector<Token> lex(std::string_view source, const Options& options = {});

bool is_keyword(std::string_view word);

// Tokens that carry meaning: no comments, whitespace or newlines.
std::vector<Token> significant(const std::vector<Token>& tokens);

// Where the input has line splices (backslash, optional blanks, newline): the byte offset of each backslash.
std::vector<std::size_t> splice_offsets(std::string_view source);

// Number of '\n' in the text.
int newline_count(std::string_view text);

// The 1-based line of byte `offset` as GCC counts lines (translation phase 1): "\n", "\r\n" and a lone '\r' each end
// one, as in lex_spliced.
int line_at(std::string_view source, std::size_t offset);

}  // namespace cxxlex
