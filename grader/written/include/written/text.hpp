// An answer as the judge reads it: sentences of tokens, each token knowing the clause (segment) it sits in.
// English words are lowercased and stemmed, articles dropped; every Han character is a token of its own, so a
// Chinese phrase of the rubric matches as a sequence of characters and no word segmenter is needed.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace workbook::written {

enum class TokenKind { word, ident, han, number, symbol };

struct Token {
    std::string form;  // stem of an English word; an identifier, a Han character, a number or a symbol as written
    TokenKind kind = TokenKind::word;
    int segment = 0;  // clause index in its sentence: commas, semicolons and "but"/"only"/"而" … start a new one
};

struct Sentence {
    std::vector<Token> tokens;
    int words = 0;                // words, identifiers and Han characters (articles included)
    int function_words = 0;       // of those, the ones that hold a sentence together ("is", "of", "的" …)
    int han = 0;                  // of the words, Han characters (a Chinese word is about two of them)
    int longest_content_run = 0;  // most English content words in a row with no function word between them
    int segments = 1;
    int items = 0;        // stretches between commas and semicolons (",", ";", "，", "、", "；")
    int short_items = 0;  // of those, the ones of at most two words: the entries of a list
};

// The answer split into sentences (". ", "!", "?", "。", "！", "？"), formulas canonicalized first.
std::vector<Sentence> read_sentences(const std::string& answer);

// A rubric phrase tokenized exactly like an answer (one sentence, articles dropped).
std::vector<Token> phrase_tokens(const std::string& phrase);

// Unicode code points in `s` (UTF-8), so Chinese and English lengths compare alike.
std::size_t code_points(const std::string& s);

}  // namespace workbook::written
