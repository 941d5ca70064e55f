// The lesson's metadata against the solutions: every blank of every exercise has four hint levels whose last one is
// the solution's own fill, every blank is named in the lesson text, and every figure and link the text uses exists.
#include "workbook_catch.hpp"

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "util/files.hpp"
#include "lesson/lesson.hpp"
#include "lesson/markers.hpp"
#include "review/tokens.hpp"

namespace fs = std::filesystem;
namespace lesson = workbook::lesson;
namespace review = workbook::review;
namespace util = workbook::util;

namespace {

const fs::path kRoot = WORKBOOK_SOURCE_DIR;
const fs::path kLesson = kRoot / "lessons" / "04-rmsnorm";

std::string read(const fs::path& p) {
    std::ifstream in(p);
    if (!in) throw std::runtime_error("cannot read " + p.string());
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string lesson_text() {
    std::string all;
    for (const auto& e : fs::directory_iterator(kLesson))
        if (e.path().extension() == ".md") all += read(e.path());
    return all;
}

}  // namespace

namespace {

// Code as the compiler reads it, tokens joined by single spaces: layout and comments do not matter.
std::string tokens_of(const std::string& code) {
    std::string out;
    for (const auto& t : review::code_tokens(code)) out += (out.empty() ? "" : " ") + t.text;
    return out;
}

// The solution's own fill of each blank, by blank id, as the compiler reads it.
std::map<std::string, std::string> solution_fills(const lesson::Lesson& L, const lesson::Exercise& ex) {
    const fs::path file = L.solutions_dir() / ex.file();
    std::map<std::string, std::string> fills;
    for (const auto& b : lesson::make_starter(util::read_text(file), file.string()).blanks)
        fills[b.id] = tokens_of(b.code);
    return fills;
}

}  // namespace

TEST_CASE("every blank's full-answer hint holds the solution's fill", "[hints]") {
    for (const auto& id : lesson::lesson_ids(kRoot)) {
        const lesson::Lesson L = lesson::load_lesson(kRoot, id);
        for (const auto& ex : L.exercises) {
            INFO(id << ": exercise " << ex.name);
            const auto fills = solution_fills(L, ex);
            REQUIRE(fills.size() == ex.blanks.size());
            for (const auto& b : ex.blanks) {
                INFO("blank " << b.id);
                for (const auto& level : b.hints) CHECK(level.size() >= 20);
                // The full answer may show the line around an inline blank; it must contain the fill itself.
                const std::string full = tokens_of(b.hints.back());
                INFO("solution fill: " << fills.at(b.id) << "\nfull-answer hint: " << full);
                CHECK(full.find(fills.at(b.id)) != std::string::npos);
            }
        }
    }
}

TEST_CASE("the lesson text names every exercise and blank", "[hints]") {
    const std::string text = lesson_text();
    for (const auto& ex : lesson::load_lesson(kRoot, "04-rmsnorm").exercises) {
        CHECK(text.find("`" + ex.name + "`") != std::string::npos);
        for (const auto& b : ex.blanks) {
            INFO(ex.name << ": blank " << b.id);
            CHECK(text.find("`" + b.id + "`") != std::string::npos);
        }
    }
}

TEST_CASE("links and figures of the lesson resolve", "[links]") {
    static const std::regex link(R"(\]\(([^)#\s]+)(#[^)]*)?\))");
    std::set<std::string> referenced_figures;
    for (const auto& e : fs::directory_iterator(kLesson)) {
        if (e.path().extension() != ".md") continue;
        const std::string text = read(e.path());
        for (auto it = std::sregex_iterator(text.begin(), text.end(), link); it != std::sregex_iterator(); ++it) {
            const std::string target = (*it)[1].str();
            if (target.rfind("http", 0) == 0) continue;
            INFO(e.path().filename().string() << " links to " << target);
            CHECK(fs::exists(kLesson / target));
            if (target.rfind("figures/", 0) == 0) referenced_figures.insert(target);
        }
    }
    int figures = 0;
    for (const auto& e : fs::directory_iterator(kLesson / "figures")) {
        if (e.path().extension() != ".svg") continue;
        ++figures;
        const std::string name = "figures/" + e.path().filename().string();
        INFO(name);
        CHECK(referenced_figures.count(name) == 1);
        const std::string svg = read(e.path());
        // Plain SVG that a Markdown viewer renders as an image: no scripts, no external references.
        CHECK(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0);
        CHECK(svg.find("</svg>") != std::string::npos);
        CHECK(svg.find("<script") == std::string::npos);
        CHECK(svg.find("href=\"http") == std::string::npos);
    }
    CHECK(figures >= 4);
}
