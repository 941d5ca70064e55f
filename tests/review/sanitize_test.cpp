// The one sanitizer between submission text and the report or results.json (grade/util.hpp, grade/clean.hpp).
#include "workbook_catch.hpp"

#include "grade/clean.hpp"
#include "grade/report.hpp"
#include "grade/results.hpp"
#include "util/util.hpp"

using namespace workbook;

TEST_CASE("sanitize_text keeps text and lines, drops what a terminal would obey", "[sanitize]") {
    CHECK(util::sanitize_text("rmsnorm.cu:83: 中文 ok\n\tnext") == "rmsnorm.cu:83: 中文 ok\n\tnext");
    CHECK(util::sanitize_text("\x1b[32mPASSED\x1b[0m") == "?[32mPASSED?[0m");
    CHECK(util::sanitize_text("a\rb") == "ab");
    CHECK(util::sanitize_text("\xc2\x9b"
                              "31m") == "?31m");  // C1 CSI, the 8-bit escape
    CHECK(util::sanitize_text("x\xe2\x80\xae"
                              "cod") == "x?cod");  // right-to-left override
    CHECK(util::sanitize_text("a\xe2\x80\xa8"
                              "b") == "a?b");  // line separator
    CHECK(util::sanitize_text("bad \xff byte") == "bad \xEF\xBF\xBD byte");
    CHECK(util::sanitize_name("evil\nname\t.cu") == "evil?name?.cu");
}

TEST_CASE("the report and results.json carry no raw control characters from a run", "[sanitize]") {
    grade::Run run;
    run.lesson.id = "04-demo";
    run.lesson.number = "04";
    run.submission_label = "sub\x1b[2J";
    run.notes.push_back("ignored (not part of the submission): a\nb\x1b[31m");
    run.vetoes.push_back({"k", "k.cu:3: bad \x1b]0;title\x07 fill", "line 3: ```\n# fake heading"});
    const std::string report = grade::format_report(run, false);
    CHECK(report.find('\x1b') == std::string::npos);
    CHECK(report.find('\x07') == std::string::npos);
    nlohmann::json j = grade::results_json(run, grade::markdown_report(run));
    const std::string dumped = j.dump();
    CHECK(dumped.find("\\u001b") == std::string::npos);
    CHECK(dumped.find("\\u0007") == std::string::npos);
    // The markdown fence outlasts any backticks inside it, so "```" in a diff cannot end it early.
    const std::string md = grade::markdown_report(run);
    CHECK(md.rfind("````text\n", 0) == 0);
}
