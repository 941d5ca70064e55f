// What the judge knows of English and Chinese without any lesson: the words that hold a sentence together (how a
// sentence is told from a list of terms), the words that negate, the words that end a negation's reach, and the
// connectives of a causal chain. Word lists, in the raw (unstemmed, lowercase) form a student writes them.
#pragma once

#include <string>
#include <vector>

namespace workbook::written {

// "the", "is", "of", "which" …: present in any sentence, absent from a list of terms (connectives and negators,
// which a stuffer strings between terms, are not counted).
bool is_function_word(const std::string& lower_word);
// The same for one Han character ("的", "是", "在" …).
bool is_function_han(const std::string& han);
// "the", "a", "an": dropped before matching, so "the hidden size" and "hidden size" are the same phrase.
bool is_article(const std::string& lower_word);
// A word after which a negation no longer reaches ("but", "only", "而" …); punctuation ends it too.
bool ends_negation_scope(const std::string& lower_word_or_han);

// Phrases (tokenized like an answer) that negate what follows them in their clause: "not", "never", "without",
// "不", "没有" ….
const std::vector<std::string>& negator_phrases();
// Chinese phrases that negate the clause they end: "与输入无关" ("has nothing to do with the input").
const std::vector<std::string>& post_negator_phrases();
// Connectives that make a causal chain: "because", "so", "otherwise", "which means", "因为", "否则" ….
const std::vector<std::string>& causal_phrases();

}  // namespace workbook::written
