#include "lesson/answers.hpp"

#include <map>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "lesson/markers.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace workbook::lesson {

std::string known_answer_text(const Lesson& lesson, const json& entry) {
    using review::UserError;
    const std::string label = "known answer '" + entry.value("name", std::string("(unnamed)")) + "'";
    const Exercise* ex = lesson.find(entry.value("exercise", std::string()));
    if (!ex)
        throw UserError(label + " names exercise '" + entry.value("exercise", std::string()) + "', which " + lesson.id +
                        " does not have.");
    const fs::path solution = lesson.solutions_dir() / ex->file();
    const std::string shown = review::display_path(solution, lesson.root);
    if (entry.contains("fills")) {
        std::map<std::string, std::string> fills;
        for (const auto& [blank, code] : entry["fills"].items()) {
            if (!ex->blank(blank))
                throw UserError(label + " fills blank '" + blank + "', which exercise '" + ex->name +
                                "' does not have.");
            fills[blank] = code.get<std::string>();
        }
        return lesson::fill_blanks(review::read_text(solution), fills, shown).text;
    }
    if (entry.contains("patch")) {
        std::string text = lesson::strip_markers(review::read_text(solution), shown).text;
        for (const auto& p : entry["patch"]) {
            const std::string find = p.at("find").get<std::string>();
            const std::size_t at = text.find(find);
            if (at == std::string::npos)
                throw UserError(label + " patches text that " + shown + " no longer holds: " + json(find).dump() + ".");
            text.replace(at, find.size(), p.at("replace").get<std::string>());
        }
        return text;
    }
    if (entry.contains("file")) {
        const fs::path file = lesson.solutions_dir() / entry["file"].get<std::string>();
        if (!fs::exists(file))
            throw UserError(label + " names the file " + review::display_path(file, lesson.root) +
                            ", which does not exist.");
        return review::read_text(file);
    }
    if (entry.value("starter", false)) {
        // The bug as shipped: what a student grades first. A starter with a `______` left is not a known answer (it
        // does not compile); the starters check grades those.
        const Converted c = lesson::make_starter(review::read_text(solution), shown);
        for (const auto& b : c.blanks)
            if (!b.fix)
                throw UserError(label + " is the starter of exercise '" + ex->name + "', whose blank '" + b.id +
                                "' is a `______`, not a fix region.");
        return c.text;
    }
    throw UserError(label + " has none of \"fills\", \"patch\", \"file\" or \"starter\".");
}

}  // namespace workbook::lesson
