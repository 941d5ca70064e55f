// A lesson's manifest, lessons/<id>/lesson.json: its exercises (file, blanks, points per rubric group, core or not),
// the written items and the pass threshold.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace workbook {

struct ExerciseInfo {
    std::string name;                   // file stem: "rmsnorm"
    std::string file;                   // "rmsnorm.cu"
    std::vector<std::string> blanks;    // blank ids in file order
    bool core = false;
    std::map<std::string, double> points;  // execution groups: "normal", "edge" (others ignored here)
    int expected_tests = 0;             // hidden tests the harness must list; 0 = not stated
};

struct WrittenItem {
    std::string id;        // "explanation", "Q1" …
    std::string group;     // "explanation" | "question"
    std::string exercise;  // exercise it counts toward in the rubric table
    double points = 0;
};

struct Lesson {
    std::string id;        // "04-rmsnorm"
    std::string number;    // "04"
    std::string title;
    std::filesystem::path dir;  // lessons/04-rmsnorm
    std::vector<ExerciseInfo> exercises;
    std::vector<WrittenItem> written;
    std::string answers_file = "answers.md";
    double min_score = 8;    // on the core rubric
    double core_max = 10;    // core rubric total (computed when not stated)
    nlohmann::json raw;

    const ExerciseInfo* exercise(const std::string& name) const;
    const ExerciseInfo* core_exercise() const;
    std::vector<std::string> exercise_names() const;
};

// Lesson ids found under <root>/lessons (folders holding lesson.json), sorted.
std::vector<std::string> known_lessons(const std::filesystem::path& root);

// "04" or "04-rmsnorm" → the lesson. Unknown or unreadable → nullopt and one sentence in *error.
std::optional<Lesson> resolve_lesson(const std::filesystem::path& root, const std::string& name, std::string* error);

}  // namespace workbook
