#include "tables.hpp"

#include <cmath>
#include <map>
#include <sstream>

#include "lesson/lesson.hpp"
#include "util/files.hpp"
#include "util/util.hpp"

namespace fs = std::filesystem;

namespace lesson_code {

namespace {

using workbook::lesson::Lesson;

const std::string kOpen = "<!-- table: ";
const std::string kClose = "<!-- end table -->";

// 2 -> "2", 0.5 -> "0.5": points as the rubric states them.
std::string number(double v) {
    if (v == std::floor(v)) return std::to_string(static_cast<long long>(v));
    std::ostringstream out;
    out << v;
    return out.str();
}

// A written item's section heading in the answers file: its id, capitalised ("explanation" -> "Explanation").
std::string heading(std::string id) {
    if (!id.empty() && id[0] >= 'a' && id[0] <= 'z') id[0] = static_cast<char>(id[0] - 'a' + 'A');
    return id;
}

std::string code_list(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& i : items) out += (out.empty() ? "`" : ", `") + i + "`";
    return out.empty() ? "—" : out;
}

std::string exercise_cell(const Lesson& L, const workbook::lesson::Exercise& ex) {
    return "`" + ex.name + "`" + (ex.core ? " (core)" : "") + ", `exercises/" + L.id + "/" + ex.file() + "`";
}

// The section's own heading ("# 3. The block reduction" -> "3. The block reduction"), linked from `from_dir`.
std::string section_link(const Lesson& L, const std::string& section, const fs::path& from_dir) {
    const fs::path page = L.lesson_dir() / section;
    std::string title = section;
    for (const auto& line : workbook::util::split_lines(workbook::util::read_text(page)))
        if (line.rfind("# ", 0) == 0) {
            title = workbook::util::trim(line.substr(2));
            break;
        }
    return "[" + title + "](" + page.lexically_relative(from_dir).generic_string() + ")";
}

std::string exercises_table(const Lesson& L, const fs::path& from_dir) {
    std::string t =
        "| exercise (file) | blanks | points (normal + edge tests) | taught in |\n| --- | --- | --- | --- |\n";
    for (const auto& ex : L.exercises) {
        const auto at = [&](const char* group) { return ex.points.count(group) ? ex.points.at(group) : 0.0; };
        t += "| " + exercise_cell(L, ex) + " | " + code_list(ex.blank_ids()) + " | " + number(at("normal")) + " + " +
             number(at("edge")) + " | " + section_link(L, ex.section, from_dir) + " |\n";
    }
    return t;
}

std::string entry_points_table(const Lesson& L) {
    std::string t = "| exercise (file) | blanks | entry point(s) |\n| --- | --- | --- |\n";
    for (const auto& ex : L.exercises) {
        std::vector<std::string> decls;
        for (const auto& d : ex.entry_points) decls.push_back(d + ";");
        std::string cell;
        for (const auto& d : decls) cell += (cell.empty() ? "`" : "<br>`") + d + "`";
        t += "| " + exercise_cell(L, ex) + " | " + code_list(ex.blank_ids()) + " | " + cell + " |\n";
    }
    return t;
}

std::string points_table(const Lesson& L) {
    const auto& core = L.exercise(L.core);
    std::string t = "| part | points |\n| --- | --- |\n";
    for (const char* group : {"normal", "edge"})
        if (core.points.count(group))
            t += "| core exercise `" + core.name + "`: hidden tests on " + group + " inputs | " +
                 number(core.points.at(group)) + " |\n";
    for (const auto& w : L.written)
        if (w.exercise == core.name)
            t += "| `## " + heading(w.id) + "` in `" + L.answers_file + "`: " + w.title + " | " + number(w.points) +
                 " |\n";
    t += "| **total** | **" + number(L.core_max()) + "** |\n";
    return t;
}

}  // namespace

RenderedTables render_tables(const std::string& markdown, const fs::path& file, const fs::path& root,
                             const std::string& default_lesson) {
    RenderedTables r;
    const std::string label = file.lexically_relative(root).generic_string();
    const auto lines = workbook::util::split_lines(markdown);
    std::map<std::string, Lesson> lessons;  // read once per file
    for (std::size_t i = 0; i < lines.size(); ++i) {
        r.text += lines[i] + "\n";
        const std::string t = workbook::util::trim(lines[i]);
        if (t.rfind(kOpen, 0) != 0 || t.size() < kOpen.size() + 4 || t.compare(t.size() - 3, 3, "-->") != 0) continue;
        const std::string where = label + ":" + std::to_string(i + 1) + ": ";
        std::istringstream words(t.substr(kOpen.size(), t.size() - kOpen.size() - 3));
        std::string kind, slug;
        words >> kind >> slug;
        if (slug.empty()) slug = default_lesson;
        std::size_t close = i + 1;
        while (close < lines.size() && workbook::util::trim(lines[close]) != kClose) ++close;
        if (close == lines.size()) {
            r.problems.push_back(where + "a generated table that is never closed with `" + kClose + "`");
            continue;
        }
        if (slug.empty()) {
            r.problems.push_back(where + "the table names no lesson (`" + kOpen + kind + " NN-name -->`)");
            continue;
        }
        if (!lessons.count(slug)) lessons.emplace(slug, workbook::lesson::load_lesson(root, slug));
        const Lesson& L = lessons.at(slug);
        std::string table;
        if (kind == "exercises") table = exercises_table(L, file.parent_path());
        else if (kind == "entry-points") table = entry_points_table(L);
        else if (kind == "points") table = points_table(L);
        else {
            r.problems.push_back(where + "unknown table '" + kind + "' (exercises, entry-points or points)");
            continue;
        }
        r.text += table + kClose + "\n";
        ++r.tables;
        i = close;
    }
    return r;
}

}  // namespace lesson_code
