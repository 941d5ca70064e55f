// The include mechanism of the lesson's code blocks (scripts/lesson/code_include.hpp) on small inputs, so that the
// ctest lesson.code, which runs it over the real lesson, cannot pass by including nothing.
#include "workbook_catch.hpp"

#include <filesystem>
#include <fstream>

#include "code_include.hpp"
#include "tables.hpp"

namespace fs = std::filesystem;

namespace {

const char* kSource =
    "int a;\n"
    "    // ANCHOR: loop\n"
    "    for (int i = 0; i < n; ++i) {\n"
    "        // ANCHOR: body\n"
    "        s += x[i];\n"
    "        // ANCHOR_END: body\n"
    "    }\n"
    "    // ANCHOR_END: loop\n";

fs::path scratch_root() {
    const fs::path root = fs::temp_directory_path() / "lesson_code_include_test";
    fs::create_directories(root / "lessons" / "x" / "examples");
    fs::create_directories(root / "solutions" / "x");
    std::ofstream(root / "lessons" / "x" / "examples" / "a.cu") << kSource;
    std::ofstream(root / "solutions" / "x" / "k.cu") << "// ANCHOR: s\nx = /*BLANK:v*/42/*END*/;\n// ANCHOR_END: s\n";
    return root;
}

}  // namespace

TEST_CASE("an anchor's region: dedented, without nested anchor lines", "[code]") {
    CHECK(lesson_code::extract_anchor(kSource, "loop", "a.cu") == "for (int i = 0; i < n; ++i) {\n    s += x[i];\n}\n");
    CHECK(lesson_code::extract_anchor(kSource, "body", "a.cu") == "s += x[i];\n");
    CHECK_THROWS_WITH(lesson_code::extract_anchor(kSource, "nope", "a.cu"), Catch::Contains("no anchor"));
    CHECK_THROWS_WITH(lesson_code::extract_anchor("// ANCHOR: a\nx;\n", "a", "b.cu"), Catch::Contains("never closed"));
}

TEST_CASE("anchors must sit outside the blanks of a solution", "[code]") {
    CHECK(lesson_code::anchors_inside_blanks("// ANCHOR: a\n// BLANK:b\nx;\n// END BLANK\n// ANCHOR_END: a\n", "s.cu")
              .empty());
    const auto bad = lesson_code::anchors_inside_blanks("// BLANK:b\n// ANCHOR: a\nx;\n// END BLANK\n", "s.cu");
    REQUIRE(bad.size() == 1);
    CHECK(bad[0] == "s.cu:2: an anchor inside a blank");
}

TEST_CASE("render regenerates include blocks and names code blocks that are not included", "[code]") {
    const fs::path root = scratch_root();
    const std::string md =
        "Text.\n\n```c++ include=lessons/x/examples/a.cu#body\nstale\n```\n\n"
        "```c++ include=exercises/x/k.cu#s\n```\n\n```text\nnot code\n```\n\n```cuda\nint drift;\n```\n"
        "```c++ include=solutions/x/k.cu#s\n```\n";
    const auto r = lesson_code::render(md, "l.md", root);
    CHECK(r.text ==
          "Text.\n\n```c++ include=lessons/x/examples/a.cu#body\ns += x[i];\n```\n\n"
          "```c++ include=exercises/x/k.cu#s\nx = ______;\n```\n\n```text\nnot code\n```\n\n```cuda\nint drift;\n```\n"
          "```c++ include=solutions/x/k.cu#s\n```\n");
    REQUIRE(r.problems.size() == 2);
    CHECK(r.problems[0].find("l.md:14: a cuda block that is not included") == 0);
    CHECK(r.problems[1].find("never from solutions") != std::string::npos);
    // Already generated text renders to itself.
    CHECK(lesson_code::render(r.text, "l.md", root).text == r.text);
    fs::remove_all(root);
}

TEST_CASE("generated tables are rewritten from the manifest, and a broken marker is named", "[code]") {
    const fs::path root = WORKBOOK_SOURCE_DIR;
    const fs::path page = root / "docs" / "page.md";  // where the links are made from; never written
    const std::string stale =
        "Text.\n<!-- table: exercises 04-rmsnorm -->\n| exercise | stale row |\n<!-- end table -->\nAfter.\n";
    const auto r = lesson_code::render_tables(stale, page, root, "");
    CHECK(r.problems.empty());
    CHECK(r.tables == 1);
    CHECK(r.text.find("stale row") == std::string::npos);
    CHECK(r.text.find("| `rmsnorm` (core), `exercises/04-rmsnorm/rmsnorm.cu` | `inv_rms` | 2 + 1 | [") !=
          std::string::npos);
    CHECK(r.text.find("(../lessons/04-rmsnorm/02-two-pass.md)") != std::string::npos);
    CHECK(r.text.rfind("Text.\n", 0) == 0);
    CHECK(r.text.find("<!-- end table -->\nAfter.\n") != std::string::npos);
    // Rendering what it wrote changes nothing: the check that lesson.code runs passes on a fresh page.
    CHECK(lesson_code::render_tables(r.text, page, root, "").text == r.text);

    const auto points = lesson_code::render_tables("<!-- table: points -->\n<!-- end table -->\n",
                                                   root / "lessons" / "04-rmsnorm" / "README.md", root, "04-rmsnorm");
    CHECK(points.text.find("| **total** | **10** |") != std::string::npos);

    const auto unknown =
        lesson_code::render_tables("<!-- table: rubric 04-rmsnorm -->\n<!-- end table -->\n", page, root, "");
    REQUIRE(unknown.problems.size() == 1);
    CHECK(unknown.problems[0] == "docs/page.md:1: unknown table 'rubric' (exercises, entry-points or points)");
    const auto open = lesson_code::render_tables("<!-- table: points 04-rmsnorm -->\n| a |\n", page, root, "");
    REQUIRE(open.problems.size() == 1);
    CHECK(open.problems[0].find("never closed") != std::string::npos);
    const auto nameless = lesson_code::render_tables("<!-- table: points -->\n<!-- end table -->\n", page, root, "");
    REQUIRE(nameless.problems.size() == 1);
    CHECK(nameless.problems[0].find("names no lesson") != std::string::npos);
}
