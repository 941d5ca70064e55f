// Small file, text and hashing helpers used across the grading pipeline.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace workbook::util {

namespace fs = std::filesystem;

std::optional<std::string> read_file(const fs::path& p);
// Writes through a temporary file and a rename, so a reader (or a parallel grade run) never sees half a file.
bool write_file_atomic(const fs::path& p, const std::string& content);

std::string sha256_hex(const std::string& data);
std::uint64_t random_u64();
std::string random_hex(int bytes);

bool is_utf8(const std::string& s);
// The one sanitizer for text that came from a submission or a student's program, on its way into a report or
// results.json: invalid UTF-8 becomes U+FFFD; control characters (C0 but \n and \t, DEL, C1 such as the 8-bit
// CSI U+009B), the Unicode line and paragraph separators and the bidirectional overrides and isolates (which can
// make a report read other than it is) become '?'; \r is dropped. So no ANSI escape, no fake line, no reordering.
std::string sanitize_text(const std::string& s);
// sanitize_text for a name shown on one line (a file or folder name): newlines and tabs become '?' too.
std::string sanitize_name(const std::string& s);

std::vector<std::string> split_lines(const std::string& s);
std::string join(const std::vector<std::string>& parts, const std::string& sep);
// At most `max_lines` lines (the first ones, or the last ones when `tail`), each cut to 300 characters.
std::string trim_lines(const std::string& s, std::size_t max_lines, bool tail = false);
std::string indent(const std::string& s, const std::string& prefix);
// Without leading and trailing blanks (spaces, tabs, CR, LF).
std::string trim(const std::string& s);
// Every occurrence of `part` removed from `s` (a private folder's path out of a message); an empty `part` removes
// nothing.
void erase_all(std::string& s, const std::string& part);

// First executable named `name` on PATH, or empty.
std::string which(const std::string& name);

std::string iso_time_now();

}  // namespace workbook::util
