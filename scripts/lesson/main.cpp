// lesson-code: regenerates what the documentation shows of the lessons from their sources, or checks it: the
// included code blocks of each lesson's Markdown (code_include.hpp) and the tables of exercises generated from the
// manifests (tables.hpp), in the lessons' pages, README.md and docs/.
//   lesson_code <repo root> --write   rewrite every page that differs
//   lesson_code <repo root> --check   change nothing; exit 1 and name each stale page or problem
// The marked solutions of every lesson are checked too: no anchor may sit inside a blank.
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "code_include.hpp"
#include "lesson/lesson.hpp"
#include "tables.hpp"
#include "util/errors.hpp"
#include "util/files.hpp"
#include "util/util.hpp"

namespace fs = std::filesystem;
namespace util = workbook::util;

namespace {

struct Totals {
    int includes = 0, tables = 0, stale = 0;
    std::vector<std::string> problems;
};

// One page: its include blocks when it is a lesson's (`lesson` not empty), its generated tables in any case.
void render_page(const fs::path& root, const fs::path& md, const std::string& lesson, bool write, Totals& totals) {
    const std::string label = util::display_path(md, root);
    const std::string text = util::read_text(md);
    std::string out = text;
    if (!lesson.empty()) {
        const auto r = lesson_code::render(out, label, root);
        totals.includes += static_cast<int>(r.includes.size());
        totals.problems.insert(totals.problems.end(), r.problems.begin(), r.problems.end());
        out = r.text;
    }
    const auto t = lesson_code::render_tables(out, md, root, lesson);
    totals.tables += t.tables;
    totals.problems.insert(totals.problems.end(), t.problems.begin(), t.problems.end());
    out = t.text;
    if (out == text) return;
    ++totals.stale;
    if (write) {
        util::write_text(md, out);
        std::cout << "lesson-code: wrote " << label << "\n";
    } else {
        std::cout << "lesson-code: " << label << " differs from its sources (run scripts/lesson/lesson-code)\n";
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3 || (std::string(argv[2]) != "--write" && std::string(argv[2]) != "--check")) {
        std::cerr << "usage: lesson_code <repo root> --write|--check\n";
        return 2;
    }
    const fs::path root = argv[1];
    const bool write = std::string(argv[2]) == "--write";
    try {
        Totals totals;
        for (const auto& id : workbook::lesson::lesson_ids(root)) {
            const auto L = workbook::lesson::load_lesson(root, id);
            for (const auto& f : util::files_with_ext(L.solutions_dir(), ".cu")) {
                const auto p = lesson_code::anchors_inside_blanks(util::read_text(f), util::display_path(f, root));
                totals.problems.insert(totals.problems.end(), p.begin(), p.end());
            }
            for (const auto& md : util::files_with_ext(L.lesson_dir(), ".md")) render_page(root, md, id, write, totals);
        }
        std::vector<fs::path> docs = {root / "README.md"};
        for (const auto& md : util::files_with_ext(root / "docs", ".md")) docs.push_back(md);
        for (const auto& md : docs)
            if (fs::exists(md)) render_page(root, md, "", write, totals);
        for (const auto& p : totals.problems) std::cout << "lesson-code: " << p << "\n";
        std::cout << "lesson-code: " << totals.includes << " included blocks, " << totals.tables
                  << " generated tables, " << totals.stale << (write ? " pages rewritten" : " pages stale") << ", "
                  << totals.problems.size() << " problems\n";
        return totals.problems.empty() && (write || totals.stale == 0) ? 0 : 1;
    } catch (const std::exception& e) {
        std::cerr << "lesson-code: " << e.what() << "\n";
        return 1;
    }
}
