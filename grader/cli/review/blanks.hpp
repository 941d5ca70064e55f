// "Did the student fill every blank?" — answered before anything is compiled, so an untouched starter gets one
// friendly sentence per blank instead of a wall of compiler errors.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace workbook::review {

struct UnfilledBlank {
    std::string id;  // blank id, or "" when it cannot be told (the file was also edited elsewhere)
    int line = 0;    // line of the `______` in the student's file
};

// `______` tokens left in `student` (comments and strings do not count). Ids come from the token-level match with the
// pristine starter when given and it matches, else from a block blank's `// blank: <id>` comment, else from file
// order when the count of placeholders equals the count of blanks.
std::vector<UnfilledBlank> find_unfilled(const std::string& student, const std::vector<std::string>& blank_ids,
                                         const std::optional<std::string>& pristine = std::nullopt);

// "rmsnorm.cu: blank 'inv_rms' on line 74 is not filled yet (`______`)." per blank, then the hint command
// `make hint-<lesson number> EX=<exercise>`. Empty when nothing is unfilled.
std::string unfilled_message(const std::string& file_label, const std::string& exercise,
                             const std::string& lesson_number, const std::vector<UnfilledBlank>& unfilled);

// Ids (or "line N" when unknown) of the blanks still unfilled in `student`; empty = all filled.
std::vector<std::string> unfilled_blanks(const std::filesystem::path& student,
                                         const std::vector<std::string>& blank_ids);

}  // namespace workbook::review
