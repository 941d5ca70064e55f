// Every answer of the corpus, scored by the lesson's real rubric. A corpus file is tests/written/corpus/<lesson>/
// <item id>.md; each "## right: <what>" answer must score the item's full points, each "## wrong: <what>" answer
// must not, and each "## zero: <what>" answer (keyword stuffing, a list of terms) must score 0.
#include "workbook_catch.hpp"

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "written/judge.hpp"

namespace fs = std::filesystem;
using namespace workbook::written;

namespace {

std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

struct Case {
    std::string kind, label, answer;
};

// Answers as the grader passes them: lines joined by single spaces (review::answer_text collapses whitespace).
std::vector<Case> cases(const std::string& md) {
    std::vector<Case> out;
    std::istringstream in(md);
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("## ", 0) == 0) {
            const auto colon = line.find(':');
            out.push_back({line.substr(3, colon == std::string::npos ? std::string::npos : colon - 3),
                           colon == std::string::npos ? "" : line.substr(colon + 1), ""});
        } else if (!out.empty() && !line.empty()) {
            out.back().answer += (out.back().answer.empty() ? "" : " ") + line;
        }
    }
    return out;
}

}  // namespace

TEST_CASE("the corpus of lesson 04 answers scores as its headings say", "[corpus]") {
    const fs::path root = WORKBOOK_SOURCE_DIR;
    const auto json = nlohmann::json::parse(read(root / "grader/rubrics/04-rmsnorm-written.json"));
    const Rubric rubric = parse_rubric(json, "04-rmsnorm-written.json");
    REQUIRE(rubric.version == 2);
    for (const auto& item : rubric.items) {
        const fs::path file = root / "tests/written/corpus/04-rmsnorm" / (item.id + ".md");
        INFO(file.string());
        CHECK(fs::exists(file));
        if (!fs::exists(file)) continue;
        int right = 0, wrong = 0;
        for (const auto& c : cases(read(file))) {
            const Verdict v = judge(rubric, item, c.answer);
            // WRITTEN_CORPUS_SHOW=1 prints every verdict, for whoever edits the rubric or the corpus.
            if (std::getenv("WRITTEN_CORPUS_SHOW"))
                std::cout << item.id << " " << c.kind << ":" << c.label << " -> " << v.score << " / " << v.max_score
                          << "\n"
                          << v.feedback << "\n\n";
            INFO(item.id << " " << c.kind << ":" << c.label << " scored " << v.score << " / " << v.max_score << "\n"
                         << v.feedback);
            if (c.kind == "right") {
                ++right;
                CHECK(v.score == item.points);
            } else if (c.kind == "wrong" || c.kind == "zero") {
                ++wrong;
                CHECK(v.score < item.points);
                if (c.kind == "zero") CHECK(v.score == 0);
            } else {
                FAIL("unknown heading kind '" << c.kind << "' (right, wrong or zero)");
            }
        }
        CHECK(right >= 10);
        CHECK(wrong >= 10);
    }
}
