// A lesson's manifest, lessons/<slug>/lesson.json: the one record of a lesson (docs/adding-a-lesson.md shows one).
// Everything else about a lesson (starters, pristine copies, CMake targets, entry-point declarations) is derived
// from it and the marked solutions, so this is the only parser of the file: every key is known, every required key
// present, and an error names the file and the key. There are no aliases and no defaults for required keys.
//
//   {"format_version": 1,
//    "slug": "04-rmsnorm",                      // the folder's name: a copy moved to another folder is an error
//    "title": "…",
//    "pass": {"min_score": 8, "core": "rmsnorm"},  // passed: every core test passes and the core rubric >= min_score
//    "answers_file": "answers.md",              // under exercises/<slug>/
//    "written_rubric": "grader/rubrics/04-rmsnorm-written.json",  // optional: the concepts the written items expect
//    "exercises": [{
//        "name": "rmsnorm",                     // exercises/<slug>/rmsnorm.cu, solutions/<slug>/rmsnorm.cu,
//                                               // grader/hidden-tests/<slug>/rmsnorm_test.cpp
//        "title": "…", "section": "02-two-pass.md",
//        "entry_points": ["void launch_rmsnorm(const float* input, …, cudaStream_t stream)"],
//        "blanks": [{"id": "inv_rms", "summary": "…", "hints": ["concept", "direction", "key line", "answer"]}],
//        "points": {"normal": 2, "edge": 1},    // execution groups of the rubric
//        "runs_on_emulator": "…",               // optional: why its tests run on the emulator on every backend
//        "review": [{"blank": "inv_rms", "pattern": "…", "unless": "…", "when": "absent", "comment": "…",
//                    "veto": "accident", "icase": false}]}],  // review/comments.hpp says what a rule does
//    "written": [{"id": "Q1", "points": 2, "group": "question", "exercise": "rmsnorm", "title": "…"}]}
#pragma once

#include <array>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace workbook::lesson {

// The manifest format this grader reads. A manifest of another version is refused, never guessed at.
inline constexpr int kFormatVersion = 1;
// Hint levels per blank: concept area, direction, key line, full answer (`workbook hint` reveals one at a time).
inline constexpr std::size_t kHintLevels = 4;

struct Blank {
    std::string id;
    std::string summary;
    std::array<std::string, kHintLevels> hints;
};

struct ReviewRule {
    std::string blank;         // empty: the rule sees every fill of the exercise
    std::string pattern;       // RE2
    std::string unless;        // empty: none
    bool when_present = true;  // "when": "present" (default) or "absent"
    std::string comment;
    std::string veto;  // empty: no veto; "accident": right only by accident
    bool icase = false;
};

struct Exercise {
    std::string name;  // "rmsnorm"
    std::string title;
    std::string section;                    // the lesson page that teaches it
    std::vector<std::string> entry_points;  // C++ declarations the hidden tests call
    std::vector<Blank> blanks;              // in file order
    std::map<std::string, double> points;   // "normal", "edge"
    std::vector<ReviewRule> review;
    // Non-empty: the exercise's hidden tests run on the emulator even when the grade runs on a GPU, and this says why
    // (a bug hunt whose bug a GPU executes without a visible effect: a GPU grade would pay for leaving it in).
    std::string runs_on_emulator;
    bool core = false;  // named by "pass": {"core": …}

    std::string file() const { return name + ".cu"; }
    std::vector<std::string> blank_ids() const;
    const Blank* blank(const std::string& id) const;
    double execution_points() const;  // normal + edge
};

struct WrittenItem {
    std::string id;  // "explanation", "Q1" …
    double points = 0;
    std::string group;     // "explanation" | "question"
    std::string exercise;  // the exercise it counts toward in the rubric table
    std::string title;
};

struct Manifest {
    std::filesystem::path file;  // where it was read from, for messages
    int format_version = kFormatVersion;
    std::string slug;
    std::string title;
    double min_score = 0;
    std::string core;  // the core exercise's name
    std::string answers_file;
    std::string written_rubric;  // relative to the repository root; empty: none
    std::vector<Exercise> exercises;
    std::vector<WrittenItem> written;

    const Exercise* find(const std::string& name) const;
    // The exercise named `name`; UserError listing the lesson's exercises when there is none.
    const Exercise& exercise(const std::string& name) const;
    std::vector<std::string> exercise_names() const;
    // The core rubric's total: the core exercise's execution points and the written items that count toward it.
    double core_max() const;
};

// A name that becomes part of file, target, test and CMake list names (an exercise's, a known answer's): a non-empty
// word of ASCII letters, digits and '_'.
bool is_plain_name(const std::string& name);

// Parses and checks a manifest. `file` names it in errors: "lessons/04-rmsnorm/lesson.json: exercises[2]
// (rmsnorm_half): unknown key 'blank'". Throws UserError for JSON that is not this format.
Manifest parse_manifest(const nlohmann::json& j, const std::filesystem::path& file);
// Reads (util/files.hpp's read_text) and parses lessons/<slug>/lesson.json.
Manifest read_manifest(const std::filesystem::path& file);

}  // namespace workbook::lesson
