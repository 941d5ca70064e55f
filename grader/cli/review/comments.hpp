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
// Rules are not applied to a blank that is still `______`, nor when the edit check failed (its veto says enough).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

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

// Throws UserError naming the exercise and rule when a rule is malformed (bad pattern, unknown "when", no comment).
void validate_review_rules(const nlohmann::json& lesson_json);

// Rules of `exercise` applied to `fills` (from edit_check). `file` labels the comments.
std::vector<Comment> apply_review_rules(const nlohmann::json& rules, const std::vector<Fill>& fills,
                                        const std::string& file, const std::string& exercise);

// The whole step for one student file: edit check against `pristine` (for the fills), then the rules.
std::vector<Comment> review_comments(const nlohmann::json& lesson_json, const std::string& exercise,
                                     const std::filesystem::path& student, const std::filesystem::path& pristine);

// As above, on texts already read (the grade pipeline reads each submitted file once, at intake). `file` labels them.
std::vector<Comment> review_comments_text(const nlohmann::json& lesson_json, const std::string& exercise,
                                          const std::string& student, const std::string& pristine,
                                          const std::string& file);

// As above, with the pristine copy found at <repo>/grader/pristine/<lesson>/<file>, the repository being the one
// above the working directory and the lesson the one whose lesson.json has this exercise. No comments when there is
// no pristine copy to compare with.
std::vector<Comment> review_comments(const nlohmann::json& lesson_json, const std::string& exercise,
                                     const std::filesystem::path& student);

}  // namespace workbook::review
