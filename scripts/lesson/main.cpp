// lesson-code: regenerates the included code blocks of a lesson's Markdown (code_include.hpp), or checks them.
//   lesson_code <repo root> <lesson dir> --write   rewrite every .md of the lesson whose blocks differ
//   lesson_code <repo root> <lesson dir> --check   change nothing; exit 1 and name each stale file or problem
// The marked solutions of the lesson are checked too: no anchor may sit inside a blank.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "code_include.hpp"

namespace fs = std::filesystem;

namespace {

std::string read(const fs::path& p) {
    std::ifstream in(p);
    if (!in) throw std::runtime_error("cannot read " + p.string());
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::vector<fs::path> files_with(const fs::path& dir, const std::string& ext) {
    std::vector<fs::path> out;
    if (!fs::is_directory(dir)) return out;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().extension() == ext) out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 4 || (std::string(argv[3]) != "--write" && std::string(argv[3]) != "--check")) {
        std::cerr << "usage: lesson_code <repo root> <lesson dir, e.g. lessons/04-rmsnorm> --write|--check\n";
        return 2;
    }
    const fs::path root = argv[1];
    const fs::path lesson = root / argv[2];
    const bool write = std::string(argv[3]) == "--write";
    try {
        std::vector<std::string> problems;
        const fs::path solutions = root / "solutions" / lesson.filename();
        for (const auto& f : files_with(solutions, ".cu")) {
            const auto p = lesson_code::anchors_inside_blanks(read(f), fs::relative(f, root).string());
            problems.insert(problems.end(), p.begin(), p.end());
        }
        int includes = 0, stale = 0;
        for (const auto& md : files_with(lesson, ".md")) {
            const std::string label = fs::relative(md, root).string();
            const std::string text = read(md);
            const auto r = lesson_code::render(text, label, root);
            includes += static_cast<int>(r.includes.size());
            problems.insert(problems.end(), r.problems.begin(), r.problems.end());
            if (r.text == text) continue;
            ++stale;
            if (write) {
                std::ofstream(md) << r.text;
                std::cout << "lesson-code: wrote " << label << "\n";
            } else {
                std::cout << "lesson-code: " << label << " differs from its sources (run scripts/lesson/lesson-code)\n";
            }
        }
        for (const auto& p : problems) std::cout << "lesson-code: " << p << "\n";
        std::cout << "lesson-code: " << includes << " included blocks, " << stale << (write ? " rewritten" : " stale")
                  << ", " << problems.size() << " problems\n";
        return problems.empty() && (write || stale == 0) ? 0 : 1;
    } catch (const std::exception& e) {
        std::cerr << "lesson-code: " << e.what() << "\n";
        return 1;
    }
}
