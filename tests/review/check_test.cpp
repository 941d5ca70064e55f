// `workbook check` (lesson/check.hpp): a complete demo lesson passes, and each kind of inconsistency between the
// manifest and the lesson's files is found, with a fix to run or make.
#include "workbook_catch.hpp"

#include <functional>

#include "fixture.hpp"
#include "lesson/check.hpp"
#include "lesson/lesson.hpp"
#include "lesson/sync.hpp"

using namespace workbook;
namespace fs = std::filesystem;

namespace {

// The fixture repository with everything a lesson needs: starters, a hidden-test file, its page and answers.
fs::path complete_repo() {
    fs::path root = fixture::make_repo();
    lesson::sync_lesson(lesson::load_lesson(root, "04"), false);
    fixture::write(root / "grader/hidden-tests/04-demo/k_test.cpp", "// the WB_TEST cases of k\n");
    fixture::write(root / "lessons/04-demo/01-demo.md", "# Demo\n");
    fixture::write(root / "exercises/04-demo/answers.md", "## explanation\n\n## Q1\n");
    return root;
}

// The built tests of the complete repository, as build/workbook-config.json lists them.
const nlohmann::json kConfig =
    nlohmann::json::parse(R"({"judges": {"04-demo": {"k": "/build/judges/04-demo/judge-k"}}})");

// The one problem `check` finds; its text must hold `what` and its fix `fix`.
void expect_problem(const fs::path& root, const std::string& what, const std::string& fix,
                    const nlohmann::json& config = kConfig) {
    const auto problems = lesson::check_lesson(root, "04", config);
    std::string all;
    for (const auto& p : problems) all += p.what + "\n    fix: " + p.fix + "\n";
    INFO(all);
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].what.find(what) != std::string::npos);
    CHECK(problems[0].fix.find(fix) != std::string::npos);
}

void edit_manifest(const fs::path& root, const std::function<void(nlohmann::json&)>& change) {
    auto j = nlohmann::json::parse(fixture::read(root / "lessons/04-demo/lesson.json"));
    change(j);
    fixture::write(root / "lessons/04-demo/lesson.json", j.dump(2));
}

}  // namespace

TEST_CASE("check: the complete demo lesson has no problems", "[check]") {
    fs::path root = complete_repo();
    std::vector<std::string> notes;
    for (const auto& p : lesson::check_lesson(root, "04", kConfig, &notes)) FAIL_CHECK(p.what);
    CHECK(notes.empty());
    // Without a build the built tests are not compared, and a note says so.
    CHECK(lesson::check_lesson(root, "04", nlohmann::json(), &notes).empty());
    CHECK(notes.size() == 1);
    fs::remove_all(root);
}

TEST_CASE("check: a manifest the parser refuses", "[check]") {
    fs::path root = complete_repo();
    edit_manifest(root, [](nlohmann::json& j) { j["exercises"][0]["blanks"][0]["hints"].erase(3); });
    expect_problem(root, "lessons/04-demo/lesson.json: exercises[0] (k), blanks[0] has 3 hints; a blank has 4",
                   "correct lesson.json");
    edit_manifest(root, [](nlohmann::json& j) { j["exercises"][0]["blanks"][0]["hints"].push_back("answer"); });
    edit_manifest(root, [](nlohmann::json& j) { j["exercises"][0]["file"] = "k.cu"; });
    expect_problem(root, "exercises[0] (k) has an unknown key 'file'", "correct lesson.json");
    edit_manifest(root, [](nlohmann::json& j) {
        j["exercises"][0].erase("file");
        j["exercises"][0].erase("points");
    });
    expect_problem(root, "exercises[0] (k) has no key 'points'", "correct lesson.json");
    edit_manifest(root, [](nlohmann::json& j) {
        j["exercises"][0]["points"] = {{"normal", 2}, {"edge", 1}};
        j["format_version"] = 2;
    });
    expect_problem(root, "has format_version 2; this grader reads version 1", "correct lesson.json");
    edit_manifest(root, [](nlohmann::json& j) {
        j["format_version"] = 1;
        j["exercises"][0]["name"] = "k 2";
    });
    expect_problem(root, "exercises[0] has \"name\": \"k 2\"; an exercise's name is letters, digits and '_'",
                   "correct lesson.json");
    fs::remove_all(root);
}

TEST_CASE("check: an exercise without its solution", "[check]") {
    fs::path root = complete_repo();
    fs::remove(root / "solutions/04-demo/k.cu");
    expect_problem(root, "lists exercise 'k', but solutions/04-demo/k.cu does not exist", "write the marked solution");
    fs::remove_all(root);
}

TEST_CASE("check: blank ids that differ from the solution's markers", "[check]") {
    fs::path root = complete_repo();
    edit_manifest(root, [](nlohmann::json& j) { j["exercises"][0]["blanks"][1]["id"] = "inverse"; });
    edit_manifest(root, [](nlohmann::json& j) { j["exercises"][0]["review"] = nlohmann::json::array(); });
    expect_problem(root, "marks the blanks [sum, inv], but lessons/04-demo/lesson.json lists [sum, inverse]",
                   "the markers' ids");
    fs::remove_all(root);
}

TEST_CASE("check: a bug hunt whose region has no bug, or whose solution the edit check refuses", "[check]") {
    fs::path root = complete_repo();
    std::string sol = fixture::kSolution;
    const std::string fixed =
        "  for (int i = threadIdx.x; i < N; i += blockDim.x) sq += in[row * N + i] * in[row * N + i];\n";
    // The starter's lines are the solution's own: nothing to find.
    sol.replace(sol.find(fixed), fixed.size(), fixed + "  // STARTER\n  //> " + fixed.substr(2));
    fixture::write(root / "solutions/04-demo/k.cu", sol);
    lesson::sync_lesson(lesson::load_lesson(root, "04"), false);
    expect_problem(root, "the fix region 'sum' of exercise 'k' ships the solution's own code", "'//> ' lines");

    // A real bug, but a fix written with a qualified name, which the fill policy refuses.
    sol = fixture::kSolution;
    sol.replace(sol.find(fixed), fixed.size(),
                "  for (int i = threadIdx.x; i < N; i += blockDim.x) sq += ::fabsf(in[row * N + i]);\n"
                "  // STARTER\n  //> for (int i = threadIdx.x; i < N; i += blockDim.x) sq += in[row * N + i];\n");
    fixture::write(root / "solutions/04-demo/k.cu", sol);
    lesson::sync_lesson(lesson::load_lesson(root, "04"), false);
    expect_problem(root, "does not pass the edit check against its own starter", "fill policy");
    fs::remove_all(root);
}

TEST_CASE("check: a starter out of sync with its solution", "[check]") {
    fs::path root = complete_repo();
    fixture::write(root / "exercises/04-demo/k.cu", fixture::read(root / "exercises/04-demo/k.cu") + "// stale\n");
    expect_problem(root, "exercises/04-demo/k.cu differs from the starter made from solutions/04-demo/k.cu",
                   "run `make sync`");
    fs::remove(root / "exercises/04-demo/k.cu");
    expect_problem(root, "exercises/04-demo/k.cu is missing", "run `make sync`");
    fs::remove_all(root);
}

TEST_CASE("check: a committed copy of the pristine starters", "[check]") {
    fs::path root = complete_repo();
    fixture::write(root / "grader/pristine/04-demo/k.cu", fixture::read(root / "exercises/04-demo/k.cu"));
    expect_problem(root, "grader/pristine/04-demo holds copies of the starters", "git rm -r grader/pristine/04-demo");
    fs::remove_all(root);
}

TEST_CASE("check: an exercise without hidden tests", "[check]") {
    fs::path root = complete_repo();
    fs::remove(root / "grader/hidden-tests/04-demo/k_test.cpp");
    expect_problem(root, "exercise 'k' has no hidden tests: grader/hidden-tests/04-demo/k_test.cpp", "WB_TEST");
    fs::remove_all(root);
}

TEST_CASE("check: an entry point the solution does not define", "[check]") {
    fs::path root = complete_repo();
    edit_manifest(root, [](nlohmann::json& j) {
        j["exercises"][0]["entry_points"][0] = "void launch_other(const float* in, cudaStream_t stream)";
    });
    expect_problem(root, "does not define the entry point launch_other", "correct its \"entry_points\"");
    fs::remove_all(root);
}

TEST_CASE("check: a section that is not a page of the lesson", "[check]") {
    fs::path root = complete_repo();
    fs::remove(root / "lessons/04-demo/01-demo.md");
    expect_problem(root, "is taught in section '01-demo.md', which is not a file", "\"section\"");
    fs::remove_all(root);
}

TEST_CASE("check: an unclaimed exercise file", "[check]") {
    fs::path root = complete_repo();
    fixture::write(root / "exercises/04-demo/extra.cu", "int x;\n");
    expect_problem(root, "exercises/04-demo/extra.cu is not an exercise of lessons/04-demo/lesson.json",
                   "add an exercise 'extra'");
    fs::remove_all(root);
}

TEST_CASE("check: a known answer that names no real exercise or blank", "[check]") {
    fs::path root = complete_repo();
    fixture::write(root / "solutions/04-demo/wrong/wrong.json",
                   R"J([{"name": "no_eps", "exercise": "kk", "fills": {"inv": "rsqrtf(sq / N)"}, "expect": {}}])J");
    expect_problem(root, "wrong/wrong.json: known answer 'no_eps' names exercise 'kk'", "one of [k]");
    fixture::write(root / "solutions/04-demo/wrong/wrong.json",
                   R"J([{"name": "no_eps", "exercise": "k", "fills": {"inverse": "rsqrtf(sq / N)"}, "expect": {}}])J");
    expect_problem(root, "'no_eps' fills blank 'inverse', which exercise 'k' does not have", "its blanks");
    fixture::write(root / "solutions/04-demo/wrong/wrong.json",
                   R"J([{"name": "gone", "exercise": "k", "patch": [{"find": "no such text", "replace": ""}],
                        "expect": {}}])J");
    expect_problem(root, "'gone' patches text that solutions/04-demo/k.cu no longer holds", "a patch's \"find\"");
    fs::remove_all(root);
}

TEST_CASE("check: a list of known answers whose entries repeat a name or have none", "[check]") {
    fs::path root = complete_repo();
    const std::string entry =
        R"J({"name": "no_eps", "exercise": "k", "fills": {"inv": "rsqrtf(sq / N)"}, "expect": {}})J";
    fixture::write(root / "solutions/04-demo/wrong/wrong.json", "[" + entry + ", " + entry + "]");
    expect_problem(root, "wrong/wrong.json: entry 1 is named 'no_eps', like an entry before it", "its own \"name\"");
    fixture::write(root / "solutions/04-demo/wrong/wrong.json", R"J([{"exercise": "k", "fills": {}}])J");
    expect_problem(root, "wrong/wrong.json: entry 0 has no \"name\" string", "an \"exercise\"");
    fixture::write(root / "solutions/04-demo/wrong/wrong.json", R"J([{"name": "no eps", "exercise": "k"}])J");
    expect_problem(root, "is named \"no eps\"; a known answer's name is letters, digits and '_'", "a JSON array");
    fs::remove_all(root);
}

TEST_CASE("check: written items that disagree with the rubric", "[check]") {
    fs::path root = complete_repo();
    edit_manifest(root, [](nlohmann::json& j) { j["written"][1]["points"] = 3; });
    expect_problem(root, "gives item 'Q1' 2 points, but lessons/04-demo/lesson.json gives it 3", "agree");
    fs::remove(root / "exercises/04-demo/answers.md");
    edit_manifest(root, [](nlohmann::json& j) { j["written"][1]["points"] = 2; });
    expect_problem(root, "their template exercises/04-demo/answers.md does not exist", "## <id>");
    fs::remove_all(root);
}

TEST_CASE("check: built hidden tests that are not the manifest's exercises", "[check]") {
    fs::path root = complete_repo();
    const auto stale = nlohmann::json::parse(R"({"judges": {"04-demo": {"k": "a", "old": "b"}}})");
    expect_problem(root, "the build's hidden tests of 04-demo are [k, old], but lessons/04-demo/lesson.json lists [k]",
                   "reconfigure the build", stale);
    fs::remove_all(root);
}
