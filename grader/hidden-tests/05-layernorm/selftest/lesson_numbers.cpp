// Every number in the lesson 05 text that a program can compute is marked, `<!-- calc:<id> -->1.25`, and recomputed
// in lesson_values.cpp. A marked number must equal its computation to the digits written, every marker must name a
// known id, and every computed id must appear in the text (lesson 04's rules, its marker scanner).
#include "workbook_catch.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "lesson_values.hpp"
#include "markdown_marks.hpp"

namespace fs = std::filesystem;

namespace {

const fs::path kRoot = WORKBOOK_SOURCE_DIR;

std::vector<fs::path> marked_files() {
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(kRoot / "lessons" / "05-layernorm"))
        if (e.path().extension() == ".md") files.push_back(e.path());
    files.push_back(kRoot / "solutions" / "05-layernorm" / "answers.md");
    files.push_back(kRoot / "solutions" / "05-layernorm" / "reference-answers.md");
    std::sort(files.begin(), files.end());
    return files;
}

std::string label(const fs::path& f) { return fs::relative(f, kRoot).generic_string(); }

}  // namespace

TEST_CASE("every marked number in lesson 05 agrees with its computation", "[numbers]") {
    const auto values = lesson05::computed_values();
    std::vector<lesson_test::Mark> marks;
    std::vector<std::string> errors;
    for (const auto& f : marked_files()) {
        auto m = lesson_test::find_marks(f, label(f), &errors);
        marks.insert(marks.end(), m.begin(), m.end());
    }
    for (const auto& e : errors) FAIL_CHECK(e);
    REQUIRE(marks.size() >= 40);  // fewer means the scanner broke, not that the text lost its numbers
    std::set<std::string> used;
    for (const auto& m : marks) {
        used.insert(m.id);
        INFO(m.file << ":" << m.line << "  calc:" << m.id << " written as " << m.written.text);
        const auto it = values.find(m.id);
        if (it == values.end()) {
            FAIL_CHECK("no computation for this id");
            continue;
        }
        INFO("computed " << lesson_test::format(it->second));
        CHECK(lesson_test::agrees(it->second, m.written));
    }
    for (const auto& [id, value] : values) {
        INFO("calc:" << id << " = " << lesson_test::format(value) << " is computed but marked nowhere");
        CHECK(used.count(id) == 1);
    }
}

TEST_CASE("the worked example cancels completely in fp32 and not in two passes", "[numbers]") {
    const auto v = lesson05::computed_values();
    CHECK(v.at("ex_var_naive_f32") == 0.0);
    CHECK(v.at("ex_var_two_pass_f32") == v.at("ex_var"));
}

TEST_CASE("no line of lesson 05 starts with a marker", "[numbers]") {
    // lesson_test::opens_html_block says why (tests/lesson/markdown_marks.hpp).
    for (const auto& f : marked_files()) {
        std::ifstream in(f);
        std::string line;
        for (int n = 1; std::getline(in, line); ++n) {
            INFO(label(f) << ":" << n << ": " << line);
            CHECK_FALSE(lesson_test::opens_html_block(line));
        }
    }
}
