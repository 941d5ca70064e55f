// Lesson-specific review comments: lesson.json's per-exercise "review" rules, each a regular expression tried on a
// blank's fill. Format (one object per rule, in the exercise's "review" array):
//
//   {"blank": "inv_rms",                 // optional: without it the rule sees every fill of the exercise
//    "pattern": "\\b(256|1024)\\b",      // RE2 syntax (linear time: no lookaround, no backreferences), searched in
//                                        // the fill's tokens joined by single spaces
//    "unless": "…",                      // optional: the pattern counts as found only when this one is not
//    "when": "present",                  // "present" (default): comment when it matches; "absent": when it does not
//    "comment": "…",                     // shown in the report, on the fill's line
//    "veto": "accident",                 // optional: the comment vetoes the grade (a result right only by accident)
//    "icase": false}                     // optional: case-insensitive
//
// Rules are not applied to a blank that is still `______` or to a bug hunt's fix region still as the starter has it,
// nor when the edit check failed (its veto says enough).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "lesson/manifest.hpp"
#include "review/edit_check.hpp"

namespace workbook::review {

struct Comment {
    std::string file;
    int line = 0;
    std::string text;
    bool veto = false;
    std::string veto_kind;  // "accident" …, empty when not a veto
    std::string blank;      // the blank the rule looked at, empty for whole-exercise rules
};

// Throws UserError naming the manifest, exercise and rule when a rule's pattern is not valid RE2. (The manifest's
// parser has already checked the rest of each rule: its keys, "when", "veto" and the blank it names.)
void validate_review_rules(const lesson::Manifest& manifest);

// `exercise`'s rules applied to `fills` (from edit_check). `file` labels the comments.
std::vector<Comment> apply_review_rules(const lesson::Exercise& exercise, const std::vector<Fill>& fills,
                                        const std::string& file);

// The whole step for one student file: edit check against `pristine` (for the fills), then the rules.
std::vector<Comment> review_comments(const lesson::Exercise& exercise, const std::filesystem::path& student,
                                     const std::filesystem::path& pristine);

// As above, on texts already read (the grade pipeline reads each submitted file once, at intake). `file` labels them.
std::vector<Comment> review_comments_text(const lesson::Exercise& exercise, const std::string& student,
                                          const std::string& pristine, const std::string& file);

}  // namespace workbook::review
