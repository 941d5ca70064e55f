#include "workbook_catch.hpp"

#include "fixture.hpp"
#include "util/errors.hpp"
#include "lesson/answers.hpp"
#include "lesson/markers.hpp"
#include "lesson/sync.hpp"

using namespace workbook::util;
using namespace workbook::lesson;
namespace fs = std::filesystem;

TEST_CASE("markers turn a solution into its starter and into a clean solution", "[sync]") {
    Converted c = make_starter(fixture::kSolution, "k.cu");
    REQUIRE(c.blanks.size() == 2);
    CHECK(c.blanks[0].id == "sum");
    CHECK(c.blanks[0].block);
    CHECK(c.blanks[1].id == "inv");
    CHECK(c.text.find("  ______  // blank: sum\n") != std::string::npos);
    CHECK(c.text.find("inv = ______;") != std::string::npos);
    CHECK(c.text.find("BLANK") == std::string::npos);
    CHECK(c.text.find("rsqrtf") == std::string::npos);

    Converted s = strip_markers(fixture::kSolution, "k.cu");
    CHECK(s.text.find("BLANK") == std::string::npos);
    CHECK(s.text.find("END") == std::string::npos);
    CHECK(s.text.find("inv = rsqrtf(sq / N + eps);") != std::string::npos);
    CHECK(s.text.find("  for (int i = threadIdx.x; i < N; i += blockDim.x) sq += ") != std::string::npos);
}

TEST_CASE("fill_blanks replaces the named blanks and keeps the others' solution text", "[sync]") {
    Converted f =
        fill_blanks(fixture::kSolution, {{"inv", "1.0f / (sqrtf(sq / N) + eps)"}, {"sum", "sq = 0.f;"}}, "k.cu");
    CHECK(f.text.find("BLANK") == std::string::npos);
    CHECK(f.text.find("inv = 1.0f / (sqrtf(sq / N) + eps);") != std::string::npos);
    CHECK(f.text.find("  sq = 0.f;\n  if (threadIdx.x == 0)") !=
          std::string::npos);  // block: one line, marker's indent
    CHECK(f.text.find("sq += in[row * N + i]") == std::string::npos);

    Converted one = fill_blanks(fixture::kSolution, {{"inv", "rsqrtf(sq + eps)"}}, "k.cu");
    CHECK(one.text.find("inv = rsqrtf(sq + eps);") != std::string::npos);
    CHECK(one.text.find("sq += in[row * N + i] * in[row * N + i];") != std::string::npos);
}

TEST_CASE("malformed markers are refused with file and line", "[sync]") {
    CHECK_THROWS_WITH(make_starter("a\n// BLANK:x\nb\n", "f.cu"),
                      "f.cu:2: block blank is never closed with '// END BLANK'.");
    CHECK_THROWS_WITH(make_starter("x = /*BLANK:y*/1;\n", "f.cu"),
                      "f.cu:1: inline blank 'y' has no '/*END*/' on the same line.");
    CHECK_THROWS_AS(make_starter("// END BLANK\n", "f.cu"), UserError);
    CHECK_THROWS_AS(make_starter("x = /*BLANK:a b*/1/*END*/;\n", "f.cu"), UserError);
}

TEST_CASE("sync round trip: write, check, student edits kept in a backup", "[sync]") {
    fs::path root = fixture::make_repo();
    workbook::lesson::Lesson L = workbook::lesson::load_lesson(root, "04");
    CHECK(L.id == "04-demo");

    SyncReport before = sync_lesson(L, true);
    CHECK_FALSE(before.in_sync);
    CHECK(before.problems.size() == 1);  // the exercise's starter is missing

    SyncReport w = sync_lesson(L, false);
    CHECK(w.backup_dir.empty());
    const std::string starter = make_starter(fixture::kSolution, "k.cu").text;
    CHECK(fixture::read(root / "exercises/04-demo/k.cu") == starter);
    CHECK_FALSE(fs::exists(root / "grader/pristine"));  // the edit check's starter is derived, never written
    CHECK(pristine_starter(L, L.exercise("k")) == starter);
    CHECK(sync_lesson(L, true).in_sync);

    // The solution changes while a student has worked on the exercise: their file is saved before it is replaced.
    std::string work = starter;
    work.replace(work.find("inv = ______;"), 13, "inv = rsqrtf(sq / N + eps);");
    fixture::write(root / "exercises/04-demo/k.cu", work);
    std::string sol = fixture::kSolution;
    sol.replace(sol.find("// Demo exercise."), 17, "// Demo exercise, revised.");
    fixture::write(root / "solutions/04-demo/k.cu", sol);
    SyncReport check = sync_lesson(L, true);
    CHECK_FALSE(check.in_sync);
    REQUIRE(check.problems.size() == 1);
    CHECK(check.problems[0] == "exercises/04-demo/k.cu differs from the starter made from solutions/04-demo/k.cu.");

    SyncReport w2 = sync_lesson(L, false);
    REQUIRE_FALSE(w2.backup_dir.empty());
    CHECK(fixture::read(w2.backup_dir / "exercises/04-demo/k.cu") == work);
    CHECK(w2.actions.front().rfind("saved your version of exercises/04-demo/k.cu to .workbook/backups/", 0) == 0);
    CHECK(sync_lesson(L, true).in_sync);

    // A stray starter without a solution is reported.
    fixture::write(root / "exercises/04-demo/old.cu", "int x;\n");
    SyncReport stray = sync_lesson(L, true);
    REQUIRE(stray.problems.size() == 1);
    CHECK(stray.problems[0] == "exercises/04-demo/old.cu has no solution in solutions/04-demo.");
    fs::remove_all(root);
}

TEST_CASE("sync refuses blank ids that disagree with lesson.json", "[sync]") {
    fs::path root = fixture::make_repo();
    workbook::lesson::Lesson L = workbook::lesson::load_lesson(root, "04-demo");
    std::string sol = fixture::kSolution;
    sol.replace(sol.find("BLANK:inv"), 9, "BLANK:inverse");
    fixture::write(root / "solutions/04-demo/k.cu", sol);
    CHECK_THROWS_WITH(
        sync_lesson(L, false),
        "solutions/04-demo/k.cu: blanks [sum, inverse] do not match lesson.json's [sum, inv] for exercise 'k'.");
    CHECK_FALSE(fs::exists(root / "exercises/04-demo/k.cu"));
    CHECK_THROWS_WITH(workbook::lesson::load_lesson(root, "05"), "Unknown lesson '05'; known lessons: 04-demo.");
    fs::remove_all(root);
}

TEST_CASE("a known answer's patch finds its text by tokens once the solution is laid out anew", "[sync]") {
    fs::path root = fixture::make_repo();
    const auto L = workbook::lesson::load_lesson(root, "04");
    const nlohmann::json entry = {
        {"name", "no_eps"},
        {"exercise", "k"},
        {"patch", {{{"find", "inv = rsqrtf(sq / N + eps);"}, {"replace", "inv = rsqrtf(sq / N);"}}}}};
    const std::string as_written = workbook::lesson::known_answer_text(L, entry);
    CHECK(as_written.find("inv = rsqrtf(sq / N);") != std::string::npos);

    // The same solution as a formatter may lay it out: other spaces, the statement wrapped over two lines.
    std::string sol = fixture::kSolution;
    const std::string inline_blank = "inv = /*BLANK:inv*/rsqrtf(sq / N + eps)/*END*/;";
    sol.replace(sol.find(inline_blank), inline_blank.size(), "inv =\n      /*BLANK:inv*/ rsqrtf(sq/N + eps) /*END*/ ;");
    fixture::write(root / "solutions/04-demo/k.cu", sol);
    const std::string relaid = workbook::lesson::known_answer_text(L, entry);
    CHECK(relaid.find("inv = rsqrtf(sq / N);") != std::string::npos);
    CHECK(relaid.find("sq/N + eps") == std::string::npos);

    // A text the solution does not hold in any layout is still refused, with the entry named.
    nlohmann::json gone = entry;
    gone["patch"][0]["find"] = "inv = rsqrtf(sq * N + eps);";
    CHECK_THROWS_WITH(workbook::lesson::known_answer_text(L, gone),
                      Catch::Matchers::Contains("known answer 'no_eps' patches text"));
    fs::remove_all(root);
}
