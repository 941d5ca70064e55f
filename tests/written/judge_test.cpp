// How the judge reads: negation and its reach, formulas in several notations, stems, Chinese, lists of terms.
// A small rubric of its own, so each rule is seen alone; the lesson's rubric is exercised by corpus_test.cpp.
#include "workbook_catch.hpp"

#include <nlohmann/json.hpp>

#include "written/error.hpp"
#include "written/judge.hpp"
#include "written/text.hpp"

using namespace workbook::written;

namespace {

const Rubric& rubric() {
    static const Rubric r = parse_rubric(nlohmann::json::parse(R"J({
  "format": "workbook-written-rubric/2",
  "lexicon": {
    "N": ["n", "hidden size", "row length", "隐藏维度"],
    "input": ["input", "x", "data", "输入"],
    "depend": ["depend on", "set by", "!independent of", "!regardless of", "取决于", "!无论"],
    "rsqrt": ["rsqrt", "reciprocal square root"],
    "mean-sq": ["mean of xsq", "mean square", "/ {N}", "mean ( xsq )"],
    "fourth-root": ["fourthrootn", "fourth root", "四次方根"]
  },
  "items": [
    {"id": "dep", "points": 2, "concepts": [
      {"id": "n-only", "found": "depends on N only", "missing": "say what it depends on",
       "any": [["depend", "N"], {"all": ["depend", "input"], "polarity": "denied"}],
       "contradicted_by": [{"all": ["depend", "input"], "window": 1}]}]},
    {"id": "formula", "points": 1, "concepts": [
      {"id": "inv", "any": [{"all": ["rsqrt", "mean-sq", "eps"], "window": 1}]}]},
    {"id": "root", "points": 1, "needs_cause": false, "concepts": [{"id": "r", "any": [["fourth-root"]]}]},
    {"id": "batch", "points": 1, "concepts": [{"id": "rows-independent",
      "any": [{"all": ["depend", "batch"], "polarity": "denied"}],
      "contradicted_by": [{"all": ["depend", "batch"], "window": 0}]}]}
  ]})J"),
                                         "test rubric");
    return r;
}

double score(const std::string& id, const std::string& answer) {
    for (const auto& item : rubric().items)
        if (item.id == id) return judge(rubric(), item, answer).score;
    FAIL("no item " << id);
    return -1;
}

}  // namespace

TEST_CASE("negation: what is denied, what is affirmed, and how far a 'not' reaches", "[judge]") {
    CHECK(score("dep", "The error depends on N, not on the input, so it is the same for every row.") == 2);
    CHECK(score("dep", "Because of the mistake the error depends on the hidden size only.") == 2);
    CHECK(score("dep", "The factor does not depend on the input, so scaling x changes nothing.") == 2);
    CHECK(score("dep", "The factor is independent of the input values, which is why it goes unnoticed.") == 2);
    CHECK(score("dep", "误差只取决于隐藏维度，因为它与输入无关。") == 2);
    // The opposite claims earn nothing.
    CHECK(score("dep", "The error depends on the input, so large rows are hit harder.") == 0);
    CHECK(score("dep", "The error does not depend on N, because only the row length changes it.") == 0);
    CHECK(score("dep", "It depends on N and on the input, so it is hard to predict.") == 0);
}

TEST_CASE("the brief's example: 'does not depend on the batch' against 'depends on the batch'", "[judge]") {
    CHECK(score("batch", "Each row is normalized alone, so the result does not depend on the batch.") == 1);
    CHECK(score("batch", "Each row is normalized alone, so the result depends on the batch.") == 0);
    CHECK(score("batch", "Rows share nothing, so a row's output is independent of the batch it sits in.") == 1);
}

TEST_CASE("formulas in different notations are one idea; a missing eps is not an eps", "[judge]") {
    CHECK(score("formula", "My line computes rsqrtf(sq_sum / N + eps), so pass 2 multiplies.") == 1);
    CHECK(score("formula", "The line is 1/sqrt(mean(x^2)+eps), so a zero row stays finite.") == 1);
    CHECK(score("formula", "It is $\\frac{1}{\\sqrt{\\sum x^2 / N + \\varepsilon}}$, so we can multiply.") == 1);
    CHECK(score("formula", "It is the reciprocal square root of the mean square plus ε, so we multiply.") == 1);
    CHECK(score("formula", "My line is rsqrtf(sq_sum / N) with no eps, so it is faster.") == 0);
    CHECK(score("root", "off by N^(1/4)") == 1);
    CHECK(score("root", "off by N**0.25") == 1);
    CHECK(score("root", "off by sqrt(sqrt(N))") == 1);
    CHECK(score("root", "相差 N 的四次方根") == 1);
    CHECK(score("root", "off by sqrt(N)") == 0);
}

TEST_CASE("a list of terms, or sentences without a causal link, earn nothing", "[judge]") {
    const Item& dep = rubric().items[0];
    const Verdict list = judge(rubric(), dep, "depends, N, hidden size, input, not input, row length, 隐藏维度");
    CHECK(list.score == 0);
    CHECK(list.only_lists);
    const Verdict run = judge(rubric(), dep, "depends on N hidden size row length input data error factor scale");
    CHECK(run.score == 0);
    const Verdict flat = judge(rubric(), dep, "The error depends on N. It is not on the input.");
    CHECK(flat.score == 0);
    CHECK(flat.no_cause);
    CHECK(flat.feedback.find("Provisional") == 0);
}

TEST_CASE("stems and tokens: inflections meet, Han characters stand alone", "[judge]") {
    const auto s = read_sentences("The squares depended; 全零的行。 x^2 and rsqrtf(s) doesn't matter.");
    REQUIRE(s.size() == 2);
    CHECK(s[0].tokens[0].form == "squar");
    CHECK(s[0].tokens[1].form == "depend");
    CHECK(s[0].tokens[1].segment == 0);
    CHECK(s[0].tokens[2].form == "全");
    CHECK(s[0].tokens[2].segment == 1);
    CHECK(s[1].tokens[0].form == "xsq");
    CHECK(s[1].tokens[2].form == "rsqrt");
    bool has_not = false;
    for (const auto& t : s[1].tokens) has_not = has_not || t.form == "not";
    CHECK(has_not);
}

TEST_CASE("malformed rubrics are refused with a sentence that names the part", "[judge]") {
    auto bad = [](const char* text) { return parse_rubric(nlohmann::json::parse(text), "r.json"); };
    CHECK_THROWS_AS(bad(R"({"format": "workbook-written-rubric/2", "lexicon": {"a": ["{nope}"]},
                           "items": [{"id": "Q", "points": 1, "concepts": [{"any": [["a"]]}]}]})"),
                    RubricError);
    CHECK_THROWS_AS(bad(R"({"format": "workbook-written-rubric/2",
                           "items": [{"id": "Q", "points": 1, "concepts": [{"id": "c"}]}]})"),
                    RubricError);
    CHECK_THROWS_AS(bad(R"({"format": "workbook-written-rubric/9", "items": [{"id": "Q", "points": 1}]})"),
                    RubricError);
    CHECK_THROWS_AS(bad(R"({"format": "workbook-written-rubric/2", "items": [{"id": "Q", "points": 1, "concepts": [
                           {"any": [{"all": ["x"], "polarity": "maybe"}]}]}]})"),
                    RubricError);
}

TEST_CASE("a very long answer is read up to its first 20 000 characters, and says so", "[judge]") {
    std::string answer;
    while (answer.size() < 200 * 1024)
        answer += "The error depends on N, not on the input, so it is the same for every row. ";
    const Verdict v = judge(rubric(), rubric().items[0], answer);
    CHECK(v.truncated);
    CHECK(v.score == 2);
    CHECK(v.feedback.find("Only the first 20000 characters were read.") != std::string::npos);
}

TEST_CASE("a negator inside a word of the rubric is part of that word", "[judge]") {
    // "无" in "无论" belongs to the rubric's "regardless" (a negated "depend"); "不" before "取决于" negates it.
    CHECK(score("dep", "因为除以的是 sqrt(N)，误差取决于隐藏维度，不取决于输入。") == 2);
    CHECK(score("dep", "因为除以的是 sqrt(N)，误差无论输入是多少都只取决于隐藏维度。") == 2);
    CHECK(score("dep", "因为除以的是 sqrt(N)，误差取决于输入。") == 0);
}
