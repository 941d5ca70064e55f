// The tamper check: a student file must equal its pristine starter token for token (comments and whitespace ignored),
// except that each `______` of the starter may be replaced by any bracket-balanced token sequence — so a fill can
// never close the function around it and add code outside. A failure is a veto, shown as a small line diff. The
// comparison reads what the compiler reads (review/tokens.hpp), and each fill must also pass the fill policy
// (review/fill_policy.hpp): a directive, a system call or a name of the grader's internals is a veto too.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace workbook::review {

struct Fill {
    std::size_t index = 0;  // blank number in file order (0-based)
    std::string id;         // blank id from lesson.json when known
    int line = 0;           // student-file line where the fill starts (the blank's line when empty)
    int end_line = 0;
    std::string text;           // the student's text of the fill, verbatim (comments inside kept)
    std::string tokens;         // the fill's tokens joined by single spaces (comments dropped)
    std::string region_tokens;  // what review rules match: the tokens of this fill and of the blanks right next to it
                                // (nothing between them), whose split between blanks is a guess
    bool unfilled = false;      // the fill is still the `______` placeholder
    bool fix_region = false;    // a bug hunt's fix region (lesson/markers.hpp) rather than a `______`
    bool unchanged = false;     // a fix region still holding the starter's code, token for token
};

struct EditCheck {
    bool ok = true;                    // false = an edit outside the blanks, or a refused fill: a veto
    bool refused = false;              // the veto is the fill policy's (review/fill_policy.hpp), not an edit
    std::string reason;                // one sentence, e.g. "rmsnorm.cu: code outside the blanks was changed (line 42)"
    std::string diff;                  // changes, one per line: "line 74: `if (row >= M) return;` was removed"
    std::vector<std::string> changes;  // the same lines, separately
    std::vector<Fill> fills;           // one per blank when ok
};

// `label` names the file in messages ("rmsnorm.cu"); `blank_ids` (file order) names the fills.
EditCheck edit_check_text(const std::string& pristine, const std::string& student, const std::string& label,
                          const std::vector<std::string>& blank_ids = {});

// Files are read with read_text (UserError for missing, huge or non-UTF-8 files).
EditCheck edit_check(const std::filesystem::path& pristine, const std::filesystem::path& student);
EditCheck edit_check(const std::filesystem::path& pristine, const std::filesystem::path& student,
                     const std::vector<std::string>& blank_ids);

}  // namespace workbook::review
