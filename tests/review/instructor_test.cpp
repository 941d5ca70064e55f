#include "workbook_catch.hpp"

#include <algorithm>
#include <atomic>
#include <csignal>
#include <sstream>
#include <thread>

#include <unistd.h>

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
#include "grade/util.hpp"

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
    REQUIRE(s.size() == 2);
    CHECK(s[0].state == "untouched");
    CHECK(s[0].detail == "0 of 2 blanks filled");
    // The written answers have their own row.
    CHECK(s[1].name == "answers.md");
    CHECK(s[1].state == "missing");
    fixture::write(root / "exercises/04-demo/answers.md", "## explanation\n\nA block reduction of the squares, then one rsqrtf.\n\n## Q1\n\n_Your answer here._\n");
    s = tools::lesson_status(L);
    CHECK(s[1].state == "in progress");
    CHECK(s[1].detail == "1 of 2 answered");

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
    CHECK(tools::format_status(L, s).find("k           passing") != std::string::npos);
    CHECK(s[1].detail == "1 of 2 answered; 1 / 2 (provisional) at the last grade");
    CHECK(tools::format_status(L, s).find("answers.md  in progress") != std::string::npos);
    fs::remove_all(root);
}

TEST_CASE("report: code, where it ran, failures, answers, hints", "[tools]") {
    fs::path root = fixture::make_repo();
    auto L = review::resolve_lesson(root, "04");
    review::sync_lesson(L, false);
    fixture::write(root / "exercises/04-demo/answers.md", "# Answers\n\n## Q1\nIt keeps things stable.\n");
    tools::reveal_hint(L, "k", "inv");

    const tools::ReportOutcome first = tools::write_report(L, {});
    const fs::path out = first.path;
    CHECK(out == root / "build/results/04/report.md");
    CHECK_FALSE(first.graded);
    std::string md = fixture::read(out);
    CHECK(md.find("Not graded yet: run `make grade-04`") != std::string::npos);
    CHECK(md.find("```cuda\n// Demo exercise.") != std::string::npos);
    CHECK(md.find("Hints used: `inv` up to level 1 (concept area).") != std::string::npos);
    CHECK(md.find("### Q1\nIt keeps things stable.") != std::string::npos);

    fixture::write(root / "build/results/04/results.json", results_for("k", false).dump());
    md = fixture::read(tools::write_report(L, {}).path);
    CHECK(md.find("Where the tests ran: **CPU emulator** (backend `emu`)") != std::string::npos);
    CHECK(md.find("### Failures explained") != std::string::npos);
    CHECK(md.find("row 3, column 768: expected 1.25, got 0") != std::string::npos);
    CHECK(md.find("| Q1 (provisional) | 1 / 2 |") != std::string::npos);
    CHECK(md.find("Changed since") == std::string::npos);  // no hashes recorded: nothing to compare

    // The graded code is what the hashes say: the same file is reported with its results ...
    auto graded = results_for("k", false);
    graded["extra_data"]["exercises"]["k"]["content_sha256"] = util::sha256_hex(fixture::read(root / "exercises/04-demo/k.cu"));
    graded["extra_data"]["answers_sha256"] = util::sha256_hex(fixture::read(root / "exercises/04-demo/answers.md"));
    fixture::write(root / "build/results/04/results.json", graded.dump());
    auto same = tools::write_report(L, {});
    CHECK(same.changed.empty());
    CHECK(fixture::read(same.path).find("row 3, column 768") != std::string::npos);
    // ... a changed file is named loudly and its old results are left out, never shown beside the new code.
    fixture::write(root / "exercises/04-demo/k.cu", fixture::read(root / "exercises/04-demo/k.cu") + "// edited\n");
    fixture::write(root / "exercises/04-demo/answers.md", "# Answers\n\n## Q1\nRewritten.\n");
    auto changed = tools::write_report(L, {});
    CHECK(changed.changed == std::vector<std::string>{"k.cu", "answers.md"});
    md = fixture::read(changed.path);
    CHECK(md.find("**Changed since the last grade: `k.cu`, `answers.md`.**") != std::string::npos);
    CHECK(md.find("row 3, column 768") == std::string::npos);
    CHECK(md.find("| Q1 (provisional) | 1 / 2 |") == std::string::npos);
    CHECK(md.find("// edited") != std::string::npos);

    CHECK_THROWS_AS(tools::write_report(L, {root / "no-such-folder", {}, {}}), review::UserError);
    fs::remove_all(root);
}

TEST_CASE("watch: one grade per burst of saves, a separator with the time, the fallback when nothing changes", "[tools]") {
    fs::path root = fixture::make_repo();
    const fs::path f = root / "x.cu", g = root / "y.cu", log = root / "grades.log";
    fixture::write(f, "a\n");
    fixture::write(g, "a\n");
    std::atomic<int> polls{0};
    tools::WatchOptions w;
    w.files = {f, g};
    w.grade_command = {"/bin/sh", "-c", "echo graded >> '" + log.string() + "'"};
    w.keys_fd = -1;
    w.poll = std::chrono::milliseconds(20);
    w.settle = std::chrono::milliseconds(200);
    w.quiet_notice = std::chrono::seconds(0);
    w.keep_going = [&] {
        int p = ++polls;
        // A burst: three saves of two files within 60 ms (same sizes: the content still differs).
        if (p == 10) fixture::write(f, "b\n");
        if (p == 11) fixture::write(g, "b\n");
        if (p == 13) fixture::write(f, "c\n");
        return p < 60;
    };
    std::ostringstream out;
    auto r = tools::watch(w, out);
    CHECK(r.grades == 2);  // at start, then one for the burst
    CHECK(r.cancelled == 0);
    std::string lines = fixture::read(log);
    CHECK(std::count(lines.begin(), lines.end(), '\n') == 2);
    CHECK(out.str().find("grade 1: started watching") != std::string::npos);
    CHECK(out.str().find("grade 2: a file was saved") != std::string::npos);
    CHECK(out.str().find("──── ") != std::string::npos);
    CHECK(out.str().find("No change seen for 0 s") != std::string::npos);
    fs::remove_all(root);
}

TEST_CASE("watch: q quits at once, during a grade too, and the grade is stopped", "[tools]") {
    fs::path root = fixture::make_repo();
    const fs::path f = root / "x.cu", pid_file = root / "grade.pid";
    fixture::write(f, "a\n");
    int keys[2];
    REQUIRE(::pipe(keys) == 0);
    tools::WatchOptions w;
    w.files = {f};
    // A grade that would take a minute; it leaves its pid for the check below.
    w.grade_command = {"/bin/sh", "-c", "echo $$ > '" + pid_file.string() + "'; exec sleep 60"};
    w.keys_fd = keys[0];
    w.poll = std::chrono::milliseconds(20);
    std::thread typist([&] {
        for (int i = 0; i < 200 && !fs::exists(pid_file); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        REQUIRE(::write(keys[1], "q", 1) == 1);
    });
    std::ostringstream out;
    const auto t0 = std::chrono::steady_clock::now();
    auto r = tools::watch(w, out);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    typist.join();
    CHECK(r.stopped_by == "q");
    CHECK(r.cancelled == 1);
    CHECK(s < 5.0);
    const pid_t pid = std::stoi(fixture::read(pid_file));
    CHECK(::kill(pid, 0) != 0);  // the grade (its whole process group) is gone
    CHECK(out.str().find("Stopped watching (q).") != std::string::npos);
    ::close(keys[0]);
    ::close(keys[1]);
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

namespace {

std::string git_in(const fs::path& root, std::vector<std::string> args) {
    args.insert(args.begin(), {"git", "-C", root.string(), "-c", "user.name=t", "-c", "user.email=t@t"});
    auto r = review::run_program(args);
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    return r.output;
}

}  // namespace

TEST_CASE("the student edition: committed files only, no solutions, no instructor lines", "[tools]") {
    if (review::which("git").empty()) {
        WARN("git not installed");
        return;
    }
    fs::path root = fixture::make_repo();
    auto L = review::resolve_lesson(root, "04");
    review::sync_lesson(L, false);
    fixture::write(root / "docs/instructor-guide.md", "secret\n");
    fixture::write(root / "docs/student-guide.md", "hello\n");
    fixture::write(root / "README.md", "# Course\n\nmake grade-04\nmake gradescope-04 <!-- instructor -->\n"
                                       "<!-- instructor:begin -->\nInstructors: make solutions-branch\n<!-- instructor:end -->\nend\n");
    fixture::write(root / "tests/review/x_test.cpp", "int x;\n");
    fixture::write(root / "tests/setup/fake_test.sh", "#!/bin/sh\n");
    fixture::write(root / "grader/emulator/tests/programs/rmsnorm_fp32.cu", "kernel\n");
    fixture::write(root / "benchmarks/04-demo/bandwidth.cu", "built from the solutions\n");
    fs::path out = root.string() + "-student";
    CHECK_THROWS_AS(tools::make_student_edition(root, out), review::UserError);  // not a git repository yet
    git_in(root, {"init", "-q", "-b", "main"});
    git_in(root, {"add", "-A"});
    git_in(root, {"commit", "-q", "-m", "course"});
    // Uncommitted work is not in the edition, and is named.
    fixture::write(root / "docs/student-guide.md", "uncommitted edit\n");
    fixture::write(root / "lessons/04-demo/draft.md", "not committed\n");

    auto r = tools::make_student_edition(root, out);
    CHECK(r.commit.size() == 40);
    CHECK(r.uncommitted.size() == 2);
    CHECK(fixture::read(out / "docs/student-guide.md") == "hello\n");
    CHECK_FALSE(fs::exists(out / "lessons/04-demo/draft.md"));
    CHECK(fs::exists(out / "exercises/04-demo/k.cu"));
    CHECK(fs::exists(out / "grader/pristine/04-demo/k.cu"));
    CHECK(fs::exists(out / "tests/setup/fake_test.sh"));
    CHECK_FALSE(fs::exists(out / "solutions"));
    CHECK_FALSE(fs::exists(out / "tests/review"));
    CHECK_FALSE(fs::exists(out / "grader/emulator/tests"));
    CHECK_FALSE(fs::exists(out / "benchmarks"));
    CHECK_FALSE(fs::exists(out / "docs/instructor-guide.md"));
    CHECK(fixture::read(out / "README.md") == "# Course\n\nmake grade-04\nend\n");
    CHECK(r.files >= 5);
    CHECK_THROWS_AS(tools::make_student_edition(root, out), review::UserError);
    CHECK_THROWS_AS(tools::make_student_edition(root, root / "inside"), review::UserError);
    // A solution committed where students would get it stops the edition.
    fixture::write(root / "exercises/04-demo/leak.cu", fixture::kSolution);
    git_in(root, {"add", "-A"});
    git_in(root, {"commit", "-q", "-m", "leak"});
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
    fixture::write(root / "solutions/04-demo/answers.md", "## Q1\nThe filled-in answers.\n");
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
    CHECK(git({"show", "solutions:exercises/04-demo/answers.md"}) == "## Q1\nThe filled-in answers.\n");
    CHECK(git({"worktree", "list"}).find("workbook-solutions") == std::string::npos);

    auto again = tools::update_solutions_branch(root);
    CHECK_FALSE(again.created);
    CHECK_FALSE(again.changed);
    CHECK(again.commit == r.commit);
    fs::remove_all(root);
}
