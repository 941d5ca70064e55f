#include "workbook_catch.hpp"

#include <atomic>
#include <sstream>
#include <thread>

#include "fixture.hpp"
#include "review/errors.hpp"
#include "review/subprocess.hpp"
#include "review/sync.hpp"
#include "tools/grade_class.hpp"
#include "tools/gradescope.hpp"
#include "tools/hint.hpp"
#include "tools/report.hpp"
#include "tools/solutions_branch.hpp"
#include "tools/status.hpp"
#include "tools/student_edition.hpp"
#include "tools/watch.hpp"
#include "tools/zip.hpp"

using namespace workbook;
namespace fs = std::filesystem;

namespace {

nlohmann::json results_for(const std::string& exercise, bool all_passed) {
    auto r = nlohmann::json::parse(R"J({"score": 3, "max_score": 10, "output": "report text",
      "tests": [{"name": "k: 7 rows x 769", "score": 0, "max_score": 1, "status": "failed",
                 "output": "row 3, column 768: expected 1.25, got 0", "tags": ["EX", "edge"]},
                {"name": "Q1 (provisional)", "score": 1, "max_score": 2, "status": "failed",
                 "output": "Found: stability", "tags": ["EX", "question", "provisional"]}],
      "extra_data": {"backend": "emu", "ran_on": "CPU emulator", "passed": false, "vetoes": [],
                     "gpu_verification": "pending", "seed": 42, "replay": "make grade-04 SEED=42 BACKEND=emu",
                     "submission": "exercises/04-demo", "exercises": {}}})J");
    for (auto& t : r["tests"]) t["tags"][0] = exercise;
    r["extra_data"]["exercises"][exercise] = {{"score", 3}, {"max_score", 3}, {"all_passed", all_passed},
                                              {"tests_passed", 5}, {"tests_total", 6}};
    return r;
}

}  // namespace

TEST_CASE("status: untouched, in progress, passing, hints used", "[tools]") {
    fs::path root = fixture::make_repo();
    auto L = review::resolve_lesson(root, "04");
    review::sync_lesson(L, false);
    auto s = tools::lesson_status(L);
    REQUIRE(s.size() == 1);
    CHECK(s[0].state == "untouched");
    CHECK(s[0].detail == "0 of 2 blanks filled");

    std::string text = fixture::read(root / "exercises/04-demo/k.cu");
    text.replace(text.find("inv = ______;"), 13, "inv = rsqrtf(sq / N + eps);");
    fixture::write(root / "exercises/04-demo/k.cu", text);
    tools::reveal_hint(L, "k", "sum");
    s = tools::lesson_status(L);
    CHECK(s[0].state == "in progress");
    CHECK(s[0].detail == "1 of 2 blanks filled");
    CHECK(s[0].hint_levels == 1);

    fixture::write(root / "build/results/04/results.json", results_for("k", true).dump());
    s = tools::lesson_status(L);
    CHECK(s[0].state == "passing");
    CHECK(tools::format_status(L, s).find("k         passing") != std::string::npos);
    fs::remove_all(root);
}

TEST_CASE("report: code, where it ran, failures, answers, hints", "[tools]") {
    fs::path root = fixture::make_repo();
    auto L = review::resolve_lesson(root, "04");
    review::sync_lesson(L, false);
    fixture::write(root / "exercises/04-demo/answers.md", "# Answers\n\n## Q1\nIt keeps things stable.\n");
    tools::reveal_hint(L, "k", "inv");

    fs::path out = tools::write_report(L, {});
    CHECK(out == root / "build/results/04/report.md");
    std::string md = fixture::read(out);
    CHECK(md.find("Not graded yet: run `make grade-04`") != std::string::npos);
    CHECK(md.find("```cuda\n// Demo exercise.") != std::string::npos);
    CHECK(md.find("Hints used: `inv` up to level 1 (concept area).") != std::string::npos);
    CHECK(md.find("### Q1\nIt keeps things stable.") != std::string::npos);

    fixture::write(root / "build/results/04/results.json", results_for("k", false).dump());
    md = fixture::read(tools::write_report(L, {}));
    CHECK(md.find("Where the tests ran: **CPU emulator** (backend `emu`)") != std::string::npos);
    CHECK(md.find("### Failures explained") != std::string::npos);
    CHECK(md.find("row 3, column 768: expected 1.25, got 0") != std::string::npos);
    CHECK(md.find("| Q1 (provisional) | 1 / 2 |") != std::string::npos);

    CHECK_THROWS_AS(tools::write_report(L, {root / "no-such-folder", {}, {}}), review::UserError);
    fs::remove_all(root);
}

TEST_CASE("watch re-grades when a file changes, and says so when nothing does", "[tools]") {
    fs::path root = fixture::make_repo();
    const fs::path f = root / "x.cu";
    fixture::write(f, "a\n");
    std::atomic<int> polls{0};
    int graded = 0;
    tools::WatchOptions w;
    w.files = {f};
    w.poll = std::chrono::milliseconds(20);
    w.quiet_notice = std::chrono::seconds(0);
    w.grade = [&] { ++graded; };
    w.keep_going = [&] {
        int p = ++polls;
        if (p == 3) fixture::write(f, "b\n");  // same size, maybe same mtime: the content still differs
        return p < 8;
    };
    std::ostringstream log;
    int runs = tools::watch(w, log);
    CHECK(runs == 2);  // at start, then after the change
    CHECK(graded == 2);
    CHECK(log.str().find("No change seen for 0 s") != std::string::npos);
    fs::remove_all(root);
}

TEST_CASE("class grading writes one results.json per student and a gradebook", "[tools]") {
    fs::path root = fixture::make_repo();
    fixture::write(root / "subs/alice/k.cu", "alice");
    fixture::write(root / "subs/bob,jr/exercises/04-demo/k.cu", "bob");
    fixture::write(root / "subs/carol/k.cu", "carol");
    std::vector<fs::path> seen;
    tools::GradeOneFn one = [&](const fs::path& sub, const fs::path&) {
        seen.push_back(sub);
        tools::OneGrade g;
        if (sub.string().find("carol") != std::string::npos) {
            g.error = "carol/k.cu is not UTF-8 text.";
            return g;
        }
        g.exit_code = 0;
        g.results = results_for("k", true);
        g.results["extra_data"]["passed"] = sub.string().find("alice") != std::string::npos;
        if (sub.string().find("bob") != std::string::npos)
            g.results["extra_data"]["vetoes"] = {{{"exercise", "k"}, {"reason", "code outside the blanks was changed"}}};
        return g;
    };
    std::ostringstream log;
    auto rows = tools::grade_class(root / "subs", root / "out", "04-demo", one, log);
    REQUIRE(rows.size() == 3);
    CHECK(seen[1] == root / "subs/bob,jr/exercises/04-demo");
    CHECK(fs::exists(root / "out/alice/results.json"));
    const std::string csv = fixture::read(root / "out/gradebook.csv");
    CHECK(csv == "student,score,max_score,passed,backend,vetoes,error\n"
                 "alice,3,10,yes,emu,,\n"
                 "\"bob,jr\",3,10,no,emu,k: code outside the blanks was changed,\n"
                 "carol,0,0,no,,,carol/k.cu is not UTF-8 text.\n");
    // A second run keeps the first gradebook.
    tools::grade_class(root / "subs", root / "out", "04-demo", one, log);
    int books = 0;
    for (const auto& e : fs::directory_iterator(root / "out")) books += e.path().extension() == ".csv";
    CHECK(books == 2);
    CHECK_THROWS_AS(tools::grade_class(root / "missing", root / "out", "04-demo", one, log), review::UserError);
    fs::remove_all(root);
}

TEST_CASE("the gradescope bundle is a valid zip with the scripts and no solutions", "[tools]") {
    CHECK(tools::crc32("123456789") == 0xCBF43926u);  // the standard check value
    fs::path root = fixture::make_repo();
    auto L = review::resolve_lesson(root, "04");
    review::sync_lesson(L, false);
    fixture::write(root / "Makefile", "grade-04:\n\ttrue\n");
    auto r = tools::write_gradescope_bundle(L, root / "build/gs.zip");
    CHECK(fs::exists(r.zip));
    const std::string run = tools::gradescope_run_autograder(L);
    CHECK(run.find("make grade-04 SUBMISSION=\"$DEST\"") != std::string::npos);
    CHECK(run.find("cp build/results/04/results.json /autograder/results/results.json") != std::string::npos);
    CHECK(tools::gradescope_setup_sh().find("apt-get install -y --no-install-recommends build-essential cmake") !=
          std::string::npos);
    if (!review::which("unzip").empty()) {
        auto test = review::run_program({"unzip", "-t", r.zip.string()});
        CHECK(test.exit_code == 0);
        auto list = review::run_program({"unzip", "-Z", "-l", r.zip.string()});
        INFO(list.output);
        CHECK(list.output.find("-rwxr-xr-x") != std::string::npos);
        CHECK(list.output.find("run_autograder") != std::string::npos);
        CHECK(list.output.find("workbook/exercises/04-demo/k.cu") != std::string::npos);
        CHECK(list.output.find("workbook/Makefile") != std::string::npos);
        CHECK(list.output.find("workbook/solutions/") == std::string::npos);
        CHECK(list.output.find("workbook/build/") == std::string::npos);
    } else {
        WARN("unzip not installed: the archive's contents were not listed");
    }
    fs::remove_all(root);
}

TEST_CASE("the student edition leaves out solutions and refuses to overwrite", "[tools]") {
    fs::path root = fixture::make_repo();
    auto L = review::resolve_lesson(root, "04");
    review::sync_lesson(L, false);
    fixture::write(root / "docs/instructor-guide.md", "secret\n");
    fixture::write(root / "docs/student-guide.md", "hello\n");
    fixture::write(root / "tests/review/x_test.cpp", "int x;\n");
    fs::path out = root.string() + "-student";
    auto r = tools::make_student_edition(root, out);
    CHECK(fs::exists(out / "exercises/04-demo/k.cu"));
    CHECK(fs::exists(out / "grader/pristine/04-demo/k.cu"));
    CHECK(fs::exists(out / "docs/student-guide.md"));
    CHECK_FALSE(fs::exists(out / "solutions"));
    CHECK_FALSE(fs::exists(out / "tests"));
    CHECK_FALSE(fs::exists(out / "docs/instructor-guide.md"));
    CHECK(r.files >= 5);
    CHECK_THROWS_AS(tools::make_student_edition(root, out), review::UserError);
    CHECK_THROWS_AS(tools::make_student_edition(root, root / "inside"), review::UserError);
    // A solution copied where students would get it stops the edition.
    fixture::write(root / "exercises/04-demo/leak.cu", fixture::kSolution);
    CHECK_THROWS_AS(tools::make_student_edition(root, root.string() + "-student2"), review::UserError);
    CHECK_FALSE(fs::exists(root.string() + "-student2/lessons"));
    fs::remove_all(out);
    fs::remove_all(root.string() + "-student2");
    fs::remove_all(root);
}

TEST_CASE("the solutions branch is made in a worktree; the working tree is untouched", "[tools]") {
    if (review::which("git").empty()) {
        WARN("git not installed");
        return;
    }
    fs::path root = fixture::make_repo();
    auto L = review::resolve_lesson(root, "04");
    review::sync_lesson(L, false);
    auto git = [&](std::vector<std::string> args) {
        args.insert(args.begin(), {"git", "-C", root.string(), "-c", "user.name=t", "-c", "user.email=t@t"});
        auto r = review::run_program(args);
        INFO(r.output);
        REQUIRE(r.exit_code == 0);
        return r.output;
    };
    CHECK_THROWS_AS(tools::update_solutions_branch(root), review::UserError);  // not a repository yet
    git({"init", "-q", "-b", "main"});
    git({"add", "-A"});
    git({"commit", "-q", "-m", "start"});
    // Uncommitted student work must survive.
    fixture::write(root / "exercises/04-demo/k.cu", "student work\n");

    auto r = tools::update_solutions_branch(root);
    CHECK(r.created);
    CHECK(r.changed);
    CHECK(fixture::read(root / "exercises/04-demo/k.cu") == "student work\n");
    CHECK(git({"rev-parse", "--abbrev-ref", "HEAD"}) == "main\n");
    const std::string on_branch = git({"show", "solutions:exercises/04-demo/k.cu"});
    CHECK(on_branch.find("inv = rsqrtf(sq / N + eps);") != std::string::npos);
    CHECK(on_branch.find("BLANK") == std::string::npos);
    CHECK(git({"worktree", "list"}).find("workbook-solutions") == std::string::npos);

    auto again = tools::update_solutions_branch(root);
    CHECK_FALSE(again.created);
    CHECK_FALSE(again.changed);
    CHECK(again.commit == r.commit);
    fs::remove_all(root);
}
