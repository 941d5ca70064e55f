// Every number in the lesson 04 text that a program can compute is marked in the Markdown with an HTML comment
// right before it, `<!-- calc:<id> -->0.848528`, and recomputed here. A marked number must equal the computed value
// rounded to the digits written (half a unit in the last written digit), every marker must name a known id, and
// every id computed here must appear somewhere in the text, so neither side can drift without a failure.
#include "workbook_catch.hpp"

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "lesson_values.hpp"
#include "markdown_marks.hpp"

namespace fs = std::filesystem;
using lesson_test::Mark;

namespace {

const fs::path kRoot = WORKBOOK_SOURCE_DIR;

// The Markdown that carries marked numbers: the lesson and the written answers that restate its numbers.
std::vector<fs::path> marked_files() {
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(kRoot / "lessons" / "04-rmsnorm"))
        if (e.path().extension() == ".md") files.push_back(e.path());
    files.push_back(kRoot / "solutions" / "04-rmsnorm" / "answers.md");
    files.push_back(kRoot / "solutions" / "04-rmsnorm" / "reference-answers.md");
    std::sort(files.begin(), files.end());
    return files;
}

std::string label(const fs::path& f) { return fs::relative(f, kRoot).generic_string(); }

std::vector<Mark> all_marks() {
    std::vector<Mark> marks;
    for (const auto& f : marked_files()) {
        auto m = lesson_test::find_marks(f, label(f));
        marks.insert(marks.end(), m.begin(), m.end());
    }
    return marks;
}

}  // namespace

TEST_CASE("number parser: digits written set the tolerance", "[numbers][parser]") {
    using lesson_test::parse_written;
    auto w = parse_written("0.848528");
    CHECK(w.value == 0.848528);
    CHECK(lesson_test::agrees(0.84852813742, w));
    CHECK_FALSE(lesson_test::agrees(0.8485295, w));  // rounds to 0.848530, not 0.848528
    CHECK(parse_written("671,096,832").value == 671096832.0);
    CHECK_FALSE(lesson_test::agrees(671096833.0, parse_written("671,096,832")));
    CHECK(parse_written("-1.414214").value == -1.414214);
    CHECK(lesson_test::agrees(3.18198e-7, parse_written("0.000000318")));
    CHECK_FALSE(lesson_test::agrees(3.19e-7, parse_written("0.000000318")));
    CHECK(lesson_test::agrees(2.5e-3, parse_written("2.5e-3")));
    CHECK(lesson_test::agrees(19.99980, parse_written("20.0")));
    CHECK_FALSE(lesson_test::agrees(19.94, parse_written("20.0")));
}

TEST_CASE("marker scanner finds numbers after the comment, and rejects a marker without one", "[numbers][parser]") {
    const std::string text =
        "a <!-- calc:x -->0.5 b\n| <!-- calc:y -->$1,024$ |\n<!-- calc:z -->**-3.25** and <!-- calc:bad --> text\n";
    std::vector<std::string> errors;
    auto marks = lesson_test::scan_marks(text, "sample.md", errors);
    REQUIRE(marks.size() == 3);
    CHECK(marks[0].id == "x");
    CHECK(marks[0].written.value == 0.5);
    CHECK(marks[1].written.value == 1024.0);
    CHECK(marks[2].written.value == -3.25);
    CHECK(marks[2].line == 3);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].find("bad") != std::string::npos);
}

TEST_CASE("every marked number in the lesson agrees with its computation", "[numbers]") {
    const auto values = lesson_test::computed_values();
    std::vector<std::string> errors;
    for (const auto& f : marked_files()) lesson_test::find_marks(f, label(f), &errors);
    for (const auto& e : errors) FAIL_CHECK(e);

    const auto marks = all_marks();
    // The lesson marks well over a hundred numbers; a scanner that finds few has broken, not the text.
    REQUIRE(marks.size() >= 120);
    for (const auto& m : marks) {
        INFO(m.file << ":" << m.line << "  calc:" << m.id << " written as " << m.written.text);
        const auto it = values.find(m.id);
        if (it == values.end()) {
            FAIL_CHECK("no computation for this id");
            continue;
        }
        INFO("computed " << lesson_test::format(it->second));
        CHECK(lesson_test::agrees(it->second, m.written));
    }
}

TEST_CASE("no line starts with a marker", "[numbers]") {
    for (const auto& f : marked_files()) {
        std::ifstream in(f);
        std::string line;
        for (int n = 1; std::getline(in, line); ++n) {
            INFO(label(f) << ":" << n << ": " << line);
            CHECK_FALSE(lesson_test::opens_html_block(line));
        }
    }
}

TEST_CASE("every computed number appears in the text", "[numbers]") {
    std::set<std::string> used;
    for (const auto& m : all_marks()) used.insert(m.id);
    for (const auto& [id, value] : lesson_test::computed_values()) {
        INFO("calc:" << id << " = " << lesson_test::format(value) << " is computed but marked nowhere");
        CHECK(used.count(id) == 1);
    }
}

TEST_CASE("the figures show the computed numbers", "[numbers]") {
    const auto v = lesson_test::computed_values();
    auto read = [](const fs::path& p) {
        std::ifstream in(p);
        std::stringstream ss;
        ss << in.rdbuf();
        return ss.str();
    };
    auto i = [&](const char* id) { return std::to_string(static_cast<long long>(std::llround(v.at(id)))); };

    const std::string pbt = read(kRoot / "lessons" / "04-rmsnorm" / "figures" / "prefix-body-tail.svg");
    for (const std::string& s :
         {"starting " + i("pbt_misalign") + " bytes past", "prefix: " + i("pbt_prefix") + " elements",
          "(" + i("pbt_prefix_bytes") + " bytes)",
          "body: " + i("pbt_body_vecs") + " packs of 8 = " + i("pbt_body_elems"), "tail: " + i("pbt_tail"),
          i("pbt_prefix") + " + " + i("pbt_body_elems") + " + " + i("pbt_tail") + " = 5125"}) {
        INFO("prefix-body-tail.svg should contain: " << s);
        CHECK(pbt.find(s) != std::string::npos);
    }

    // Every bar carries a tooltip "<dtype> <M>×<N> <kernel>: <TB/s> TB/s" with the measured value.
    const std::string bars = read(kRoot / "lessons" / "04-rmsnorm" / "figures" / "h200-bandwidth.svg");
    const std::pair<const char*, const char*> kernels[] = {{"torch", "torch F.rms_norm"},
                                                           {"triton", "Triton, row in registers"},
                                                           {"cuda", "CUDA two-pass fp32 / bf16 vec8"}};
    int bars_checked = 0;
    for (const auto& [id, value] : v) {
        if (id.rfind("bw_", 0) != 0) continue;
        const std::string key = id.substr(3);  // fp32_16384x1024_torch
        const std::string dtype = key.substr(0, 4);
        const auto last = key.rfind('_');
        std::string shape = key.substr(5, last - 5);  // 16384x1024
        shape.replace(shape.find('x'), 1, "×");
        const std::string kernel = key.substr(last + 1);
        for (const auto& [k, name] : kernels) {
            if (kernel != k) continue;
            char tb[32];
            std::snprintf(tb, sizeof tb, "%.2f", value);
            const std::string title = dtype + " " + shape + " " + name + ": " + tb + " TB/s";
            INFO("h200-bandwidth.svg should contain the tooltip: " << title);
            CHECK(bars.find(title) != std::string::npos);
            ++bars_checked;
        }
    }
    CHECK(bars_checked == 27);
    CHECK(bars.find("4.25 TB/s") != std::string::npos);
}
