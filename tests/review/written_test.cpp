#include "workbook_catch.hpp"

#include <algorithm>

#include "fixture.hpp"
#include "util/errors.hpp"
#include "util/files.hpp"
#include "review/written.hpp"
#include "grade/score.hpp"

using namespace workbook::review;
using namespace workbook::util;
namespace fs = std::filesystem;

namespace {

const std::string kTemplate = R"(# Lesson 04 answers

## Explanation
<!-- Explain how your kernel works. -->
_Your answer here._

## Q1
> Why is eps added inside the square root?

_Your answer here._
)";

const nlohmann::json& rubric() {
    static const nlohmann::json r = nlohmann::json::parse(fixture::kRubric);
    return r;
}

const WrittenScore& item(const std::vector<WrittenScore>& v, const std::string& id) {
    for (const auto& w : v)
        if (w.id == id) return w;
    FAIL("no item " << id);
    return v.front();
}

}  // namespace

TEST_CASE("the template's placeholders score zero", "[written]") {
    auto scores = score_answers(rubric(), kTemplate, nlohmann::json::parse(fixture::kLesson));
    REQUIRE(scores.size() == 2);
    for (const auto& w : scores) {
        CHECK(w.score == 0);
        CHECK(w.placeholder);
        CHECK(w.provisional);
    }
    // The quoted question mentions eps and the square root, but it is not the student's answer.
    CHECK(item(scores, "Q1").found.empty());
    CHECK(item(scores, "Q1").max_score == 2);
    CHECK(item(scores, "Q1").group == "question");
    CHECK(item(scores, "Q1").exercise == "k");
    CHECK(item(scores, "explanation").group == "explanation");
}

TEST_CASE("an answer of one 18 KB line is scored, not a crash", "[written]") {
    std::string line = "eps goes inside the square root so an all-zero row gives no NaN";
    while (line.size() < 18 * 1024) line += " and again the mean of squares plus eps";
    line += " (the end)";
    const std::string md = "## Explanation\n" + line + "\n\n## Q1\n" + line + "\n";
    // A pattern that walks the whole line one character per step: std::regex recursed once per character and
    // overflowed an 8 MiB stack on this answer.
    nlohmann::json r = rubric();
    r["items"][1]["concepts"][2]["patterns"] = {"^(.)*the end"};
    std::vector<WrittenScore> v;
    REQUIRE_NOTHROW(v = score_answers(r, md, nlohmann::json::object()));
    CHECK_FALSE(item(v, "Q1").placeholder);
    const auto& found = item(v, "Q1").found;
    CHECK(std::find(found.begin(), found.end(), "numerical stability") != found.end());
}

TEST_CASE("empty and missing answers score zero", "[written]") {
    auto none = score_answers(rubric(), "");
    CHECK(item(none, "Q1").score == 0);
    CHECK(item(none, "Q1").feedback.find("No \"## Q1\" section") == 0);
    auto blank = score_answers(rubric(), "## Q1\n\n\n## Explanation\n");
    CHECK(item(blank, "Q1").score == 0);
    CHECK(item(blank, "Q1").placeholder);
}

TEST_CASE("a good answer scores by matched concept weight, rounded down to 0.5", "[written]") {
    std::string good = R"(## Explanation
Each block does a reduction of the squares with warp shuffles, then normalizes the row.

## Q1: eps
> Why is eps added inside the square root?

Adding eps inside the square root keeps the result numerically stable: for an all-zero row
the mean of squares is 0 and without eps we would divide by zero.
)";
    auto s = score_answers(rubric(), good);
    CHECK(item(s, "explanation").score == 1);
    const auto& q1 = item(s, "Q1");
    CHECK(q1.score == 2);
    CHECK(q1.missing.empty());
    CHECK(q1.feedback.find("Provisional") == 0);

    // Only "stable" (weight 2 of 4): 2 x 0.5 = 1.
    std::string partial = "## Q1\nIt makes the computation more stable when values are small, which matters a lot.\n";
    auto p = score_answers(rubric(), partial);
    CHECK(item(p, "Q1").score == 1);
    REQUIRE(item(p, "Q1").missing.size() == 2);
    CHECK(item(p, "Q1").missing[0] == "eps inside the square root");

    // One concept of weight 1 of 4: 2 x 0.25 = 0.5.
    auto q = score_answers(rubric(), "## Q1\nAn all-zero input row would otherwise make us divide by zero there.\n");
    CHECK(item(q, "Q1").score == 0.5);
}

TEST_CASE("Chinese answers match their phrasings; short answers score zero", "[written]") {
    std::string zh =
        "## Q1\n把 eps 放在根号内可以保证数值稳定，否则全零的行会出现除以零的情况，结果变成 NaN "
        "或无穷大，整个输出都会出错。"
        "这也是 vLLM 等推理框架的做法。\n";
    auto s = score_answers(rubric(), zh);
    CHECK(item(s, "Q1").score == 2);
    auto short_answer = score_answers(rubric(), "## Q1\nstability\n");
    CHECK(item(short_answer, "Q1").score == 0);
    CHECK(item(short_answer, "Q1").too_short);
}

TEST_CASE("score_written finds the lesson's rubric; bad rubrics are refused", "[written]") {
    fs::path root = fixture::make_repo();
    fixture::write(root / "exercises/04-demo/answers.md", kTemplate);
    auto s = score_written(nlohmann::json::parse(fixture::kLesson), root / "exercises/04-demo/answers.md", root);
    CHECK(s.size() == 2);
    auto missing = score_written(nlohmann::json::parse(fixture::kLesson), root / "nowhere/answers.md", root);
    CHECK(missing.size() == 2);
    fs::remove(root / "grader/rubrics/04-demo-written.json");
    CHECK_THROWS_AS(score_written(nlohmann::json::parse(fixture::kLesson), root / "exercises/04-demo/answers.md", root),
                    UserError);
    CHECK_THROWS_AS(validate_rubric(nlohmann::json::parse(R"({"items": [{"id": "Q1", "points": 2, "concepts": [
        {"patterns": ["(unclosed"]}]}]})"),
                                    "r.json"),
                    UserError);
    fs::remove_all(root);
}

TEST_CASE("the lesson's own rubric: the model answers earn every point, the template none", "[written]") {
    const fs::path root = WORKBOOK_SOURCE_DIR;
    const auto lesson = nlohmann::json::parse(read_text(root / "lessons/04-rmsnorm/lesson.json"));
    const auto model = score_written(lesson, root / "solutions/04-rmsnorm/answers.md", root);
    REQUIRE(model.size() == 4);
    for (const auto& w : model) {
        INFO(w.id << ": " << w.feedback);
        CHECK(w.score == w.max_score);
        CHECK(w.missing.empty());
        CHECK(w.feedback.find("Provisional until an instructor confirms.") == 0);
    }
    for (const auto& w : score_written(lesson, root / "exercises/04-rmsnorm/answers.md", root)) {
        CHECK(w.score == 0);
        CHECK(w.placeholder);
    }
}

TEST_CASE("the lesson's rubric judges meaning: a paraphrase is credited, its opposite is not", "[written]") {
    const fs::path root = WORKBOOK_SOURCE_DIR;
    const auto rubric = nlohmann::json::parse(read_text(root / "grader/rubrics/04-rmsnorm-written.json"));
    const std::string good =
        "## Q2\nThe outputs shrink by N^(1/4), because the denominator grows by the fourth root "
        "of N. This depends on N, not on the input. For N = 4096 they are 8x too small, which "
        "matters since the next layers were trained for inputs of RMS 1.\n";
    const auto g = item(score_answers(rubric, good), "Q2");
    CHECK(g.score == 2);
    std::string bad = good;
    bad.replace(bad.find("This depends on N, not on the input."), 36, "This depends on the input, not on N.");
    const auto b = item(score_answers(rubric, bad), "Q2");
    CHECK(b.score < 2);
    CHECK(std::find(b.missing.begin(), b.missing.end(),
                    "the error is a factor that depends on the hidden size N, not on the input (scale invariance "
                    "survives)") != b.missing.end());
    CHECK(b.feedback.find("Check: ") != std::string::npos);
}

TEST_CASE("the explanation counts only when the code it explains passes its tests", "[written]") {
    using namespace workbook;
    using namespace workbook::grade;
    lesson::Lesson L;
    L.id = L.slug = "04-demo";
    L.number = "04";
    L.core = "k";
    lesson::Exercise k;
    k.name = "k";
    k.core = true;
    k.points = {{"normal", 2}};
    L.exercises = {k};
    L.written = {{"explanation", 1, "explanation", "k", "explanation"}, {"Q1", 2, "question", "k", "Q1"}};
    L.min_score = 1;
    auto run_with = [&](bool code_passes) {
        Run run;
        run.lesson = L;
        run.backend = Backend::emu;
        ExerciseResult ex;
        ex.info = &run.lesson.exercises[0];
        ex.attempted_build = ex.build.ok = true;
        TestOutcome t;
        t.test.exercise = "k";
        t.test.name = "k: normal";
        t.test.group = "normal";
        t.passed = code_passes;
        ex.tests = {t};
        run.exercises = {ex};
        run.written = {{"explanation", "explanation", "k", "Provisional until an instructor confirms.", 1, 1},
                       {"Q1", "question", "k", "Provisional until an instructor confirms.", 2, 2}};
        score_run(run);
        return run;
    };
    const Run failing = run_with(false);
    CHECK(failing.written[0].score == 0);
    CHECK(failing.written[0].feedback.find("once k passes all its hidden tests") != std::string::npos);
    CHECK(failing.written[1].score == 2);  // a question is about the lesson, not about this code
    CHECK(failing.total_score == 2);
    const Run passing = run_with(true);
    CHECK(passing.written[0].score == 1);
    CHECK(passing.total_score == 5);
}

TEST_CASE("an item's heading retyped at another level still opens its section", "[written]") {
    // The template says "## Q1"; a student typed "### Q1", "#Q1" or "# Q1". Before, the answer ran into the item
    // above it (or was dropped after "# "), and the item scored 0 with "No \"## Q1\" section was found".
    for (const std::string heading : {"### Q1", "#Q1", "# Q1", "###### Q1:"}) {
        INFO(heading);
        const auto v = score_answers(rubric(), "# Answers\n\n## Explanation\nMy kernel.\n\n" + heading +
                                                   "\nBecause eps is added, a zero row gives no NaN.\n");
        CHECK(item(v, "Q1").feedback.find("No \"## Q1\" section") == std::string::npos);
        CHECK(item(v, "Q1").answer.find("zero row gives no NaN") != std::string::npos);
        CHECK(item(v, "explanation").answer.find("zero row") == std::string::npos);
    }
    // Old Mac line ends (a carriage return alone) are line ends too.
    const auto cr = score_answers(rubric(), "# Answers\r\r## Q1\rBecause eps is added, a zero row gives no NaN.\r");
    CHECK(item(cr, "Q1").answer == "Because eps is added, a zero row gives no NaN.");
    // A sub-heading that names no item stays part of the answer it stands in.
    const auto sub = score_answers(rubric(), "## Q1\nFirst part.\n\n### Details\nSecond part.\n");
    CHECK(item(sub, "Q1").answer.find("Second part.") != std::string::npos);
}
