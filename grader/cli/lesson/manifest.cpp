#include "lesson/manifest.hpp"

#include <algorithm>
#include <system_error>

#include "common/errors.hpp"
#include "common/files.hpp"

namespace fs = std::filesystem;

namespace workbook::review {

std::vector<std::string> lesson_ids(const fs::path& repo_root) {
    std::vector<std::string> ids;
    std::error_code ec;
    fs::path dir = repo_root / "lessons";
    if (!fs::is_directory(dir, ec)) return ids;
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.is_directory()) ids.push_back(e.path().filename().string());
    std::sort(ids.begin(), ids.end());
    return ids;
}

static std::string joined(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
    return s.empty() ? "none" : s;
}

LessonPaths resolve_lesson(const fs::path& repo_root, const std::string& name) {
    auto ids = lesson_ids(repo_root);
    for (const auto& id : ids) {
        if (id == name || id.rfind(name + "-", 0) == 0) {
            LessonPaths p;
            p.root = repo_root;
            p.id = id;
            p.number = id.substr(0, id.find('-'));
            return p;
        }
    }
    throw UserError("Unknown lesson '" + name + "'; known lessons: " + joined(ids) + ".");
}

fs::path find_repo_root(const fs::path& start) {
    std::error_code ec;
    fs::path p = fs::weakly_canonical(start, ec);
    for (; !p.empty(); p = p.parent_path()) {
        if (fs::is_directory(p / "lessons", ec) && fs::is_directory(p / "grader", ec)) return p;
        if (p == p.root_path()) break;
    }
    throw UserError("No workbook repository (a folder with lessons/ and grader/) at or above " + start.string() + ".");
}

nlohmann::json load_json(const fs::path& file) {
    std::string text = read_text(file);
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        throw UserError(file.string() + " is not valid JSON (byte " + std::to_string(e.byte) + ").");
    }
}

std::string manifest_lesson_id(const nlohmann::json& lesson) {
    if (!lesson.is_object()) return "";
    for (const char* k : {"slug", "id"})
        if (lesson.contains(k) && lesson[k].is_string()) return lesson[k].get<std::string>();
    return "";
}

static std::vector<std::string> blank_ids(const nlohmann::json& blanks) {
    std::vector<std::string> ids;
    if (!blanks.is_array()) return ids;
    for (const auto& b : blanks) {
        if (b.is_string()) ids.push_back(b.get<std::string>());
        else if (b.is_object() && b.contains("id") && b["id"].is_string()) ids.push_back(b["id"].get<std::string>());
    }
    return ids;
}

static ExerciseInfo exercise_from(const std::string& name, const nlohmann::json& e) {
    ExerciseInfo info;
    info.name = name;
    info.file = e.contains("file") && e["file"].is_string() ? e["file"].get<std::string>() : name + ".cu";
    // Only the file name counts: the exercise lives in the lesson's exercises folder whatever the manifest's prefix.
    info.file = fs::path(info.file).filename().string();
    if (e.contains("blanks")) info.blanks = blank_ids(e["blanks"]);
    if (e.contains("review") && e["review"].is_array()) info.review = e["review"];
    return info;
}

std::vector<ExerciseInfo> exercises_of(const nlohmann::json& lesson) {
    std::vector<ExerciseInfo> out;
    if (!lesson.is_object() || !lesson.contains("exercises")) return out;
    const auto& ex = lesson["exercises"];
    if (ex.is_array()) {
        for (const auto& e : ex) {
            if (!e.is_object()) continue;
            std::string name;
            if (e.contains("name") && e["name"].is_string()) name = e["name"].get<std::string>();
            else if (e.contains("id") && e["id"].is_string()) name = e["id"].get<std::string>();
            else if (e.contains("file") && e["file"].is_string()) name = fs::path(e["file"].get<std::string>()).stem().string();
            if (!name.empty()) out.push_back(exercise_from(name, e));
        }
    } else if (ex.is_object()) {
        for (auto it = ex.begin(); it != ex.end(); ++it)
            if (it.value().is_object()) out.push_back(exercise_from(it.key(), it.value()));
    }
    return out;
}

ExerciseInfo find_exercise(const nlohmann::json& lesson, const std::string& name) {
    std::vector<std::string> names;
    for (auto& e : exercises_of(lesson)) {
        if (e.name == name) return e;
        names.push_back(e.name);
    }
    throw UserError("Unknown exercise '" + name + "'; this lesson has: " + joined(names) + ".");
}

}  // namespace workbook::review
