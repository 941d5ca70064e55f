#include "lesson/catalogue.hpp"

#include <set>

#include "lesson/manifest.hpp"
#include "util/errors.hpp"
#include "util/files.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace workbook::lesson {

namespace {

std::string text_field(const json& entry, const char* key, const std::string& where) {
    if (!entry.contains(key) || !entry.at(key).is_string())
        throw util::UserError(where + " has no \"" + key + "\" string.");
    return entry.at(key).get<std::string>();
}

}  // namespace

std::vector<KnownAnswer> read_known_answers(const fs::path& file, const std::string& shown) {
    std::vector<KnownAnswer> out;
    std::error_code ec;
    if (!fs::exists(file, ec)) return out;
    const json list = util::load_json(file);
    if (!list.is_array()) throw util::UserError(shown + " is not a JSON array of known answers.");
    std::set<std::string> names;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string where = shown + ": entry " + std::to_string(i);
        if (!list[i].is_object()) throw util::UserError(where + " is not an object.");
        KnownAnswer a{text_field(list[i], "name", where), text_field(list[i], "exercise", where), list[i]};
        if (!is_plain_name(a.name))  // it names a ctest and stands in CMake lists
            throw util::UserError(where + " is named \"" + a.name +
                                  "\"; a known answer's name is letters, digits and '_' (it names a ctest).");
        if (!names.insert(a.name).second)
            throw util::UserError(where + " is named '" + a.name + "', like an entry before it; names are unique.");
        out.push_back(std::move(a));
    }
    return out;
}

KnownAnswer find_known_answer(const fs::path& file, const std::string& shown, const std::string& name) {
    for (auto& a : read_known_answers(file, shown))
        if (a.name == name) return a;
    throw util::UserError(shown + " has no known answer named '" + name + "'.");
}

}  // namespace workbook::lesson
