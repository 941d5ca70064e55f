#include "lesson/lesson.hpp"

#include <algorithm>

#include "common/util.hpp"

namespace workbook {

namespace fs = std::filesystem;
using nlohmann::json;

const ExerciseInfo* Lesson::exercise(const std::string& name) const {
    for (const auto& e : exercises)
        if (e.name == name) return &e;
    return nullptr;
}

const ExerciseInfo* Lesson::core_exercise() const {
    for (const auto& e : exercises)
        if (e.core) return &e;
    return exercises.empty() ? nullptr : &exercises.front();
}

std::vector<std::string> Lesson::exercise_names() const {
    std::vector<std::string> v;
    for (const auto& e : exercises) v.push_back(e.name);
    return v;
}

std::vector<std::string> known_lessons(const fs::path& root) {
    std::vector<std::string> ids;
    std::error_code ec;
    for (const auto& d : fs::directory_iterator(root / "lessons", ec))
        if (d.is_directory() && fs::is_regular_file(d.path() / "lesson.json", ec))
            ids.push_back(d.path().filename().string());
    std::sort(ids.begin(), ids.end());
    return ids;
}

namespace {

double num(const json& j, std::initializer_list<const char*> keys, double fallback) {
    for (const char* k : keys)
        if (j.is_object() && j.contains(k) && j[k].is_number()) return j[k].get<double>();
    return fallback;
}

std::string str(const json& j, std::initializer_list<const char*> keys, const std::string& fallback = "") {
    for (const char* k : keys)
        if (j.is_object() && j.contains(k) && j[k].is_string()) return j[k].get<std::string>();
    return fallback;
}

ExerciseInfo parse_exercise(const json& j) {
    ExerciseInfo e;
    e.name = str(j, {"name", "id", "stem"});
    e.file = str(j, {"file"}, e.name + ".cu");
    if (e.name.empty()) e.name = fs::path(e.file).stem().string();
    if (j.contains("blanks") && j["blanks"].is_array())
        for (const auto& b : j["blanks"])
            e.blanks.push_back(b.is_string() ? b.get<std::string>() : str(b, {"id", "name"}));
    e.core = j.value("core", false) || str(j, {"kind", "role"}) == "core";
    const json* pts = nullptr;
    for (const char* k : {"points", "rubric"})
        if (j.contains(k) && j[k].is_object()) pts = &j[k];
    if (pts)
        for (const auto& [k, v] : pts->items()) {
            if (v.is_number()) e.points[k] = v.get<double>();
            else if (v.is_object() && v.contains("points") && v["points"].is_number())
                e.points[k] = v["points"].get<double>();
        }
    e.expected_tests = static_cast<int>(num(j, {"expected_tests", "tests", "test_count"}, 0));
    return e;
}

}  // namespace

std::optional<Lesson> resolve_lesson(const fs::path& root, const std::string& name, std::string* error) {
    const auto ids = known_lessons(root);
    std::string match;
    for (const auto& id : ids)
        if (id == name || id.rfind(name + "-", 0) == 0) {
            if (!match.empty()) {
                match.clear();
                break;
            }
            match = id;
        }
    if (match.empty()) {
        if (error)
            *error = "Unknown lesson '" + name + "'; known lessons: " + (ids.empty() ? "(none)" : util::join(ids, ", ")) +
                     " (use the number, e.g. " + (ids.empty() ? "04" : ids.front().substr(0, ids.front().find('-'))) +
                     ").";
        return std::nullopt;
    }
    Lesson L;
    L.id = match;
    L.number = match.substr(0, match.find('-'));
    L.dir = root / "lessons" / match;
    auto text = util::read_file(L.dir / "lesson.json");
    try {
        L.raw = json::parse(text ? *text : "");
    } catch (const std::exception& ex) {
        if (error) *error = (L.dir / "lesson.json").string() + " is not valid JSON (" + ex.what() + ").";
        return std::nullopt;
    }
    const json& j = L.raw;
    L.title = str(j, {"title"}, match);
    // lesson.json may name itself ("slug"/"id"); the folder name stays authoritative for paths.
    L.answers_file = str(j, {"answers_file", "answers"}, "answers.md");
    if (j.contains("exercises") && j["exercises"].is_array())
        for (const auto& e : j["exercises"]) L.exercises.push_back(parse_exercise(e));
    else if (j.contains("exercises") && j["exercises"].is_object())
        for (const auto& [k, v] : j["exercises"].items()) {
            auto e = parse_exercise(v);
            if (e.name.empty() || e.name == ".cu") {
                e.name = k;
                if (e.file == ".cu") e.file = k + ".cu";
            }
            L.exercises.push_back(e);
        }
    std::string core_name = str(j, {"core", "core_exercise"});
    if (core_name.empty() && j.contains("pass")) core_name = str(j["pass"], {"core"});
    if (const std::string core = core_name; !core.empty())
        for (auto& e : L.exercises) e.core = e.name == core;
    if (L.exercises.empty()) {
        if (error) *error = (L.dir / "lesson.json").string() + " lists no exercises.";
        return std::nullopt;
    }
    const json& pass = j.contains("pass") ? j["pass"] : j;
    L.min_score = num(pass, {"min_score", "pass_score", "threshold"}, 8);

    const ExerciseInfo* core = L.core_exercise();
    for (const char* key : {"written", "questions"}) {
        if (!j.contains(key) || !j[key].is_array()) continue;
        for (const auto& w : j[key]) {
            WrittenItem item;
            item.id = w.is_string() ? w.get<std::string>() : str(w, {"id", "name"});
            item.group = str(w, {"group", "kind"}, item.id == "explanation" ? "explanation" : "question");
            item.exercise = str(w, {"exercise"}, core ? core->name : "");
            item.points = num(w, {"points", "max_score"}, 0);
            L.written.push_back(item);
        }
        break;
    }
    // The core rubric: the core exercise's execution points plus the written items that count toward it.
    double total = 0;
    if (core)
        for (const auto& [g, p] : core->points)
            if (g == "normal" || g == "edge") total += p;
    for (const auto& w : L.written)
        if (core && w.exercise == core->name) total += w.points;
    L.core_max = num(pass, {"max_score", "core_max"}, total);
    return L;
}

}  // namespace workbook
