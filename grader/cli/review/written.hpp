// Provisional scoring of the written answers (exercises/<lesson>/answers.md) against a concept rubric
// (grader/rubrics/<lesson>-written.json; format in grader/rubrics/README.md). This file finds each item's answer in
// answers.md; the judging on meaning is grader/written's (workbook::written::judge). A machine cannot grade prose,
// so every score is provisional until an instructor confirms it; what it can do is say which ideas it found.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace workbook::review {

struct WrittenScore {
    std::string id;        // "explanation", "Q1", "Q2", "Q3" (as the rubric spells it)
    std::string group;     // "explanation" or "question"
    std::string exercise;  // exercise the item belongs to in the rubric table (the core exercise for Q1-Q3)
    double score = 0;
    double max_score = 0;
    std::string feedback;              // concepts found / missing, one short paragraph
    std::vector<std::string> found;    // concept descriptions credited
    std::vector<std::string> missing;  // concept descriptions not credited (absent, or contradicted by the answer)
    bool placeholder = false;          // still the template's placeholder (or empty)
    bool too_short = false;            // under the item's min_chars
    bool provisional = true;           // always, until an instructor confirms
    std::string answer;                // the answer text that was scored
};

// answers.md split by "## " headings: heading text -> body (verbatim). A heading of another level that names one of
// `item_ids` ("### Q3", "# Q3", "##Q3": the template's heading retyped) opens that item's section too; any other
// heading of level 3 or more stays part of the answer it stands in.
std::map<std::string, std::string> markdown_sections(const std::string& markdown,
                                                     const std::vector<std::string>& item_ids = {});

// What of a section counts as the student's answer: no HTML comments, no quoted (`>`) question text, no
// placeholder lines; whitespace collapsed.
std::string answer_text(const std::string& section, const std::vector<std::string>& placeholder_patterns = {});

// Scores answers against a parsed rubric. `lesson_json` supplies each item's group and exercise when it lists
// written items; an item missing from the answers scores 0.
std::vector<WrittenScore> score_answers(const nlohmann::json& rubric, const std::string& answers_markdown,
                                        const nlohmann::json& lesson_json = nlohmann::json());

// Throws UserError when a rubric is malformed (no items, an unknown synonym class, a bad pattern, zero weight).
void validate_rubric(const nlohmann::json& rubric, const std::string& label);

// The pipeline's entry point: rubric grader/rubrics/<lesson>-written.json under `repo_root`, the lesson being
// lesson_json's "id" or else the folder that holds `answers_md`. A missing answers file scores every item 0.
std::vector<WrittenScore> score_written(const nlohmann::json& lesson_json, const std::filesystem::path& answers_md,
                                        const std::filesystem::path& repo_root);
// As above, with the answers' text already read (the grade pipeline reads each submitted file once, at intake).
std::vector<WrittenScore> score_written(const nlohmann::json& lesson_json, const std::filesystem::path& answers_md,
                                        const std::string& answers_text, const std::filesystem::path& repo_root);

}  // namespace workbook::review
