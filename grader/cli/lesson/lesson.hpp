// A lesson as every command sees it: where its folders are, and its manifest (lesson/manifest.hpp), read once.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lesson/manifest.hpp"

namespace workbook::lesson {

struct Lesson : Manifest {
    std::filesystem::path root;  // repository root
    std::string id;              // "04-rmsnorm", the folder's name (and the manifest's slug)
    std::string number;          // "04"
    nlohmann::json raw;          // the manifest as read, already checked by parse_manifest

    std::filesystem::path lesson_dir() const { return root / "lessons" / id; }
    std::filesystem::path exercises_dir() const { return root / "exercises" / id; }
    std::filesystem::path solutions_dir() const { return root / "solutions" / id; }
    std::filesystem::path pristine_dir() const { return root / "grader" / "pristine" / id; }
    std::filesystem::path hidden_tests_dir() const { return root / "grader" / "hidden-tests" / id; }
    std::filesystem::path results_dir() const { return root / "build" / "results" / number; }
    std::filesystem::path manifest() const { return lesson_dir() / "lesson.json"; }
};

// Lesson ids under <root>/lessons (folders holding a lesson.json), sorted.
std::vector<std::string> lesson_ids(const std::filesystem::path& root);

// "04" or "04-rmsnorm" -> the lesson, its manifest read and checked. UserError naming the known lessons when there is
// no such lesson (or the number is ambiguous), or naming the file and key when the manifest is wrong.
Lesson load_lesson(const std::filesystem::path& root, const std::string& name);

// The repository root above `start` (a folder holding lessons/ and grader/). Throws UserError when there is none.
std::filesystem::path find_repo_root(const std::filesystem::path& start);

}  // namespace workbook::lesson
