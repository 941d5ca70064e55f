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

#include <nlohmann/json.hpp>

#include "solution_blanks.hpp"

namespace fs = std::filesystem;

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

TEST_CASE("every blank of every exercise has four hints ending with the solution's fill", "[hints]") {
    const auto hints = nlohmann::json::parse(read(kLesson / "hints.json"));
    const auto solutions = lesson_test::solution_blanks(kRoot / "solutions" / "04-rmsnorm");
    REQUIRE(solutions.size() >= 6);  // the exercises of docs/architecture.md
    for (const auto& [exercise, blanks] : solutions) {
        INFO("exercise " << exercise);
        REQUIRE(hints.contains(exercise));
        REQUIRE(hints[exercise].size() == blanks.size());
        for (const auto& [blank, fill] : blanks) {
            INFO("blank " << blank);
            REQUIRE(hints[exercise].contains(blank));
            const auto& levels = hints[exercise][blank];
            REQUIRE(levels.size() == 4);
            for (const auto& l : levels) CHECK(l.get<std::string>().size() >= 20);
            // The full answer may show the line around an inline blank; it must contain the fill itself.
            const std::string full = lesson_test::code_only(levels[3].get<std::string>());
            INFO("solution fill: " << lesson_test::code_only(fill) << "\nfull-answer hint: " << full);
            CHECK(full.find(lesson_test::code_only(fill)) != std::string::npos);
        }
    }
    for (auto it = hints.begin(); it != hints.end(); ++it) {
        INFO("hints.json names exercise " << it.key());
        CHECK(solutions.count(it.key()) == 1);
    }
}

TEST_CASE("the lesson text names every exercise and blank", "[hints]") {
    const std::string text = lesson_text();
    for (const auto& [exercise, blanks] : lesson_test::solution_blanks(kRoot / "solutions" / "04-rmsnorm")) {
        CHECK(text.find("`" + exercise + "`") != std::string::npos);
        for (const auto& [blank, fill] : blanks) {
            INFO(exercise << ": blank " << blank);
            CHECK(text.find("`" + blank + "`") != std::string::npos);
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
