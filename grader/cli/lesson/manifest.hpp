// What the review and the tools need from a lesson: where its folders are and, from lesson.json, each exercise's file,
// blank ids (file order) and review rules. Read tolerantly: lesson.json is written by the lesson authors and also
// read by the grading pipeline, which owns its other fields.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace workbook::review {

struct ExerciseInfo {
    std::string name;                 // file stem: "rmsnorm"
    std::string file;                 // "rmsnorm.cu"
    std::vector<std::string> blanks;  // ids in file order
    nlohmann::json review = nlohmann::json::array();  // review rules (see comments.hpp)
};

struct LessonPaths {
    std::filesystem::path root;  // repository root
    std::string id;              // "04-rmsnorm"
    std::string number;          // "04"
    std::filesystem::path lesson_dir() const { return root / "lessons" / id; }
    std::filesystem::path exercises_dir() const { return root / "exercises" / id; }
    std::filesystem::path solutions_dir() const { return root / "solutions" / id; }
    std::filesystem::path pristine_dir() const { return root / "grader" / "pristine" / id; }
    std::filesystem::path results_dir() const { return root / "build" / "results" / number; }
    std::filesystem::path manifest() const { return lesson_dir() / "lesson.json"; }
};

// "04" or "04-rmsnorm" -> the lesson folder under lessons/. Throws UserError naming the known lessons.
LessonPaths resolve_lesson(const std::filesystem::path& repo_root, const std::string& name);

// Every lesson folder under lessons/ (ids), sorted.
std::vector<std::string> lesson_ids(const std::filesystem::path& repo_root);

// The repository root above `start` (a folder holding lessons/ and grader/). Throws UserError when there is none.
std::filesystem::path find_repo_root(const std::filesystem::path& start);

// A JSON file, with a UserError naming the file and the parse error's position.
nlohmann::json load_json(const std::filesystem::path& file);

// The lesson's id as lesson.json states it ("slug" or "id": "04-rmsnorm"), or "" when it does not.
std::string manifest_lesson_id(const nlohmann::json& lesson);

// Exercises of lesson.json, in manifest order. Accepts "exercises" as an array of objects (name/id, file, blanks as
// ids or {"id": …} objects, review) or as an object keyed by exercise name.
std::vector<ExerciseInfo> exercises_of(const nlohmann::json& lesson);

// The exercise named `name`, or a UserError listing the known names.
ExerciseInfo find_exercise(const nlohmann::json& lesson, const std::string& name);

}  // namespace workbook::review
