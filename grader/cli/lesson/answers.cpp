#include "lesson/answers.hpp"

#include <map>
#include <utility>

#include <cxxlex/cxxlex.hpp>
#include "util/errors.hpp"
#include "util/files.hpp"
#include "lesson/markers.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace workbook::lesson {

namespace {

// A token as a patch compares it: comments and directives with their blanks folded to one space (a formatter
// re-indents and re-wraps them), every other token as written.
std::string comparable(const cxxlex::Token& t) {
    if (t.kind != cxxlex::Kind::comment && t.kind != cxxlex::Kind::preprocessor) return t.text;
    std::string out;
    for (char c : t.text) {
        const bool blank = c == ' ' || c == '\t' || c == '\n' || c == '\r';
        if (!blank) out += c;
        else if (!out.empty() && out.back() != ' ') out += ' ';
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
}

// Where `find` stands in `text`, as [begin, end) bytes. The text as written first; else the first place whose tokens
// (whitespace and line breaks aside) are those of `find`, so a patch still applies after the solution is laid out
// anew (make format). Not found: npos.
std::pair<std::size_t, std::size_t> locate(const std::string& text, const std::string& find) {
    if (const std::size_t at = text.find(find); at != std::string::npos) return {at, at + find.size()};
    const auto want = cxxlex::significant(cxxlex::lex(find));
    if (want.empty()) return {std::string::npos, 0};
    const auto have = cxxlex::significant(cxxlex::lex(text));
    for (std::size_t i = 0; i + want.size() <= have.size(); ++i) {
        std::size_t k = 0;
        while (k < want.size() && comparable(have[i + k]) == comparable(want[k])) ++k;
        if (k == want.size()) {
            const auto& last = have[i + k - 1];
            return {have[i].offset, last.offset + last.length};
        }
    }
    return {std::string::npos, 0};
}

}  // namespace

std::string known_answer_text(const Lesson& lesson, const json& entry) {
    using util::UserError;
    const std::string label = "known answer '" + entry.value("name", std::string("(unnamed)")) + "'";
    const Exercise* ex = lesson.find(entry.value("exercise", std::string()));
    if (!ex)
        throw UserError(label + " names exercise '" + entry.value("exercise", std::string()) + "', which " + lesson.id +
                        " does not have.");
    const fs::path solution = lesson.solutions_dir() / ex->file();
    const std::string shown = util::display_path(solution, lesson.root);
    if (entry.contains("fills")) {
        std::map<std::string, std::string> fills;
        for (const auto& [blank, code] : entry["fills"].items()) {
            if (!ex->blank(blank))
                throw UserError(label + " fills blank '" + blank + "', which exercise '" + ex->name +
                                "' does not have.");
            fills[blank] = code.get<std::string>();
        }
        return lesson::fill_blanks(util::read_text(solution), fills, shown).text;
    }
    if (entry.contains("patch")) {
        std::string text = lesson::strip_markers(util::read_text(solution), shown).text;
        for (const auto& p : entry["patch"]) {
            const std::string find = p.at("find").get<std::string>();
            const auto [begin, end] = locate(text, find);
            if (begin == std::string::npos)
                throw UserError(label + " patches text that " + shown + " no longer holds: " + json(find).dump() + ".");
            text.replace(begin, end - begin, p.at("replace").get<std::string>());
        }
        return text;
    }
    if (entry.contains("file")) {
        const fs::path file = lesson.solutions_dir() / entry["file"].get<std::string>();
        if (!fs::exists(file))
            throw UserError(label + " names the file " + util::display_path(file, lesson.root) +
                            ", which does not exist.");
        return util::read_text(file);
    }
    if (entry.value("starter", false)) {
        // The bug as shipped: what a student grades first. A starter with a `______` left is not a known answer (it
        // does not compile); the starters check grades those.
        const Converted c = lesson::make_starter(util::read_text(solution), shown);
        for (const auto& b : c.blanks)
            if (!b.fix)
                throw UserError(label + " is the starter of exercise '" + ex->name + "', whose blank '" + b.id +
                                "' is a `______`, not a fix region.");
        return c.text;
    }
    throw UserError(label + " has none of \"fills\", \"patch\", \"file\" or \"starter\".");
}

}  // namespace workbook::lesson
