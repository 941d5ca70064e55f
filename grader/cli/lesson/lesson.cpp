#include "lesson/lesson.hpp"

#include <algorithm>
#include <system_error>

#include "util/errors.hpp"
#include "util/files.hpp"
#include "util/util.hpp"

namespace fs = std::filesystem;

namespace workbook::lesson {

using util::display_path;
using util::load_json;
using util::UserError;

std::vector<std::string> lesson_ids(const fs::path& root) {
    std::vector<std::string> ids;
    std::error_code ec;
    for (const auto& d : fs::directory_iterator(root / "lessons", ec))
        if (d.is_directory() && fs::is_regular_file(d.path() / "lesson.json", ec))
            ids.push_back(d.path().filename().string());
    std::sort(ids.begin(), ids.end());
    return ids;
}

Lesson load_lesson(const fs::path& root, const std::string& name) {
    const auto ids = lesson_ids(root);
    std::vector<std::string> matches;
    for (const auto& id : ids)
        if (id == name || id.rfind(name + "-", 0) == 0) matches.push_back(id);
    if (matches.size() != 1)
        throw UserError("Unknown lesson '" + name +
                        "'; known lessons: " + (ids.empty() ? "none" : util::join(ids, ", ")) + ".");
    Lesson L;
    L.root = root;
    L.id = matches.front();
    L.number = L.id.substr(0, L.id.find('-'));
    L.raw = load_json(L.manifest());
    static_cast<Manifest&>(L) = parse_manifest(L.raw, display_path(L.manifest(), root));
    if (L.slug != L.id)
        throw UserError(display_path(L.manifest(), root) + ": 'slug' is \"" + L.slug +
                        "\", but the lesson's folder is " + L.id + "; they must be the same.");
    return L;
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

}  // namespace workbook::lesson
