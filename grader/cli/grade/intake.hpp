// Submitted files as the grading pipeline takes them in (util::read_submitted reads them): the few words that say
// why a file cannot be graded (its exercise then scores 0 and the rest is graded), and the text the static review
// reads when a file holds bytes that are not UTF-8 (a warning, not a refusal).
#pragma once

#include <string>
#include <vector>

namespace workbook::grade {

// read_submitted's refusal cut to its first clause, for reports and gradebooks: "rmsnorm.cu is a symbolic link".
std::string short_refusal(const std::string& sentence);

// `text` with every byte that is not part of valid UTF-8 replaced by '?'; the lines (1-based) where that happened are
// appended to *lines. Such a byte is almost always in a comment (a file saved in GBK or Latin-1), where it changes
// nothing, and it is never valid inside a blank or the code the edit check compares.
std::string replace_invalid_utf8(const std::string& text, std::vector<int>* lines);

// The warning for a file with such bytes at `lines`.
std::string invalid_utf8_warning(const std::string& file, const std::vector<int>& lines);

// Whether `name`, a file of the submission the lesson does not know, looks like `file` renamed on its way: another
// case (`RMSNorm.cu`), a copy's mark (`rmsnorm (1).cu`, `rmsnorm copy.cu`, `rmsnorm-2.cu`), an added `.txt`.
bool looks_renamed(const std::string& name, const std::string& file);

}  // namespace workbook::grade
