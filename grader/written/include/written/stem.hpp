// English stemming, so that "depends", "depending" and "dependent" meet in one form. Chinese needs none: the text
// module keeps every Han character as a token of its own.
#pragma once

#include <string>

namespace workbook::written {

// Snowball's English stem of a lowercase ASCII word ("squares" -> "squar"). Safe to call from several threads.
std::string stem_english(const std::string& word);

}  // namespace workbook::written
