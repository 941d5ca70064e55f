// Submitted files as the grader takes them in: whether a file can be graded at all (missing, a link, binary, too
// large: then its exercise scores 0 and the rest is graded), and the repaired copies the static review reads when a
// file holds bytes that are not UTF-8 (a warning, not a refusal).
#pragma once

#include <filesystem>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace workbook::grade {

inline constexpr std::uintmax_t kMaxSubmittedFile = 1024 * 1024;

// Empty when `p` can be graded as text; else a few words naming it by `label` (its file name: never an absolute path,
// which would end up in gradebooks): "rmsnorm.cu is missing". Links are not followed: a hand-in's link could name
// another student's file or the solutions.
std::string check_text_file(const std::filesystem::path& p, const std::string& label);

// `text` with every byte that is not part of valid UTF-8 replaced by '?'; the lines (1-based) where that happened are
// appended to *lines. Such a byte is almost always in a comment (a file saved in GBK or Latin-1), where it changes
// nothing, and it is never valid inside a blank or the code the edit check compares.
std::string replace_invalid_utf8(const std::string& text, std::vector<int>* lines);

// The warning for a file with such bytes at `lines`.
std::string invalid_utf8_warning(const std::string& file, const std::vector<int>& lines);

// Copies of submitted files for the static review, in a private temporary folder removed with this object, named
// <tmp>/<lesson id>/<file> as the review expects.
class ReviewCopies {
public:
    explicit ReviewCopies(std::string lesson_id) : lesson_id_(std::move(lesson_id)) {}
    ~ReviewCopies();
    ReviewCopies(const ReviewCopies&) = delete;
    ReviewCopies& operator=(const ReviewCopies&) = delete;

    // The path of a copy of `original` holding `text`, or `original` itself when the copy cannot be made.
    std::filesystem::path copy(const std::filesystem::path& original, const std::string& text);

private:
    std::string lesson_id_;
    std::filesystem::path dir_;
};

}  // namespace workbook::grade
