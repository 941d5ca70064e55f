// Reading and writing the files students and instructors hand us. Every read goes through read_text so that a huge
// or binary file is refused with one sentence instead of being tokenized or copied into a report.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace workbook::util {

inline constexpr std::uintmax_t kMaxTextFile = 1024 * 1024;  // 1 MiB: far above any exercise file

// The whole file as UTF-8 text. Throws UserError when it is missing, not a regular file, over 1 MiB or not UTF-8.
std::string read_text(const std::filesystem::path& file);

// A JSON file read with read_text; a UserError names the file and the parse error's position.
nlohmann::json load_json(const std::filesystem::path& file);

// True when `text` is valid UTF-8; `bad_line` receives the 1-based line of the first invalid byte.
bool valid_utf8(const std::string& text, int* bad_line = nullptr);

// A file of a submission, read without ever leaving the submission folder: a symbolic link, a device file, a FIFO,
// a socket or a file with several hard links (one of them may lie outside the folder) is refused without opening
// what it points to, as are huge, binary and non-UTF-8 files. `refusal` is one sentence naming `label`, or empty
// when `text` holds the file.
struct Submitted {
    std::string text;
    std::string refusal;
    // The file is read but is not UTF-8: `refusal` says so, and `text` holds it all the same, for a caller that
    // grades it with a warning (the grading pipeline does: such bytes are almost always in a comment).
    bool not_utf8 = false;
};
Submitted read_submitted(const std::filesystem::path& file, const std::string& label);

// Number of Unicode code points (for length thresholds that treat Chinese and English alike).
std::size_t utf8_length(const std::string& text);

// Writes atomically enough for our purposes (temp file + rename) and creates parent folders.
void write_text(const std::filesystem::path& file, const std::string& text);

// "20261129-173512" (UTC, plus a counter suffix when that folder already exists) under <root>/.workbook/backups/.
// Creates the folder and returns it.
std::filesystem::path new_backup_dir(const std::filesystem::path& repo_root);

// Copies `file` into `backup_dir`, keeping its path relative to `repo_root` when it lies inside it (else its name).
// Returns the copy's path.
std::filesystem::path backup_file(const std::filesystem::path& repo_root, const std::filesystem::path& backup_dir,
                                  const std::filesystem::path& file);

// Path shown to a person: relative to `base` when inside it.
std::string display_path(const std::filesystem::path& p, const std::filesystem::path& base);

// Regular files directly in `dir` whose name ends with `ext` (".cu"), sorted by name.
std::vector<std::filesystem::path> files_with_ext(const std::filesystem::path& dir, const std::string& ext);

}  // namespace workbook::util
