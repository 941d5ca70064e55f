#include "workbook_catch.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <map>
#include <sstream>
#include <thread>

#include <unistd.h>

#include "fixture.hpp"
#include "grade/result_files.hpp"
#include "util/errors.hpp"
#include "util/subprocess.hpp"
#include "lesson/sync.hpp"
#include "tools/class_child.hpp"
#include "tools/grade_class.hpp"
#include "tools/gradebook.hpp"
#include "tools/gradescope.hpp"
#include "tools/hint.hpp"
#include "tools/report.hpp"
#include "tools/solutions_branch.hpp"
#include "tools/status.hpp"
#include "tools/student_edition.hpp"
#include "tools/watch.hpp"
#include "util/util.hpp"

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
    r["extra_data"]["exercises"][exercise] = {
        {"score", 3}, {"max_score", 3}, {"all_passed", all_passed}, {"tests_passed", 5}, {"tests_total", 6}};
    return r;
}

}  // namespace

TEST_CASE("status: untouched, in progress, passing, hints used", "[tools]") {
    fs::path root = fixture::make_repo();
    auto L = lesson::load_lesson(root, "04");
    lesson::sync_lesson(L, false);
    auto s = tools::lesson_status(L);
    REQUIRE(s.size() == 2);
    CHECK(s[0].state == "untouched");
    CHECK(s[0].detail == "0 of 2 blanks filled");
    // The written answers have their own row.
    CHECK(s[1].name == "answers.md");
    CHECK(s[1].state == "missing");
    fixture::write(
        root / "exercises/04-demo/answers.md",
        "## explanation\n\nA block reduction of the squares, then one rsqrtf.\n\n## Q1\n\n_Your answer here._\n");
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

    // A damaged results file is said, not taken for "not graded yet".
    fixture::write(root / "build/results/04/results.json", "{\"extra_data\": ");
    s = tools::lesson_status(L);
    CHECK(s[0].state == "in progress");
    CHECK(s[0].detail.rfind("1 of 2 blanks filled; the last grade is unknown (", 0) == 0);
    CHECK(s[0].detail.find("is not valid JSON") != std::string::npos);
    fs::remove_all(root);
}

TEST_CASE("status: each exercise's last grade, also after grades of one exercise (EX=)", "[tools]") {
    fs::path root = fixture::make_repo();
    auto L = lesson::load_lesson(root, "04");
    lesson::sync_lesson(L, false);
    std::string text = fixture::read(root / "exercises/04-demo/k.cu");
    text.replace(text.find("inv = ______;"), 13, "inv = rsqrtf(sq / N + eps);");
    fixture::write(root / "exercises/04-demo/k.cu", text);
    // The whole lesson graded first (k passes), then a grade of another exercise only, which holds no k; the latest
    // link points at that second run, as grade/result_files.hpp leaves it.
    const fs::path results = root / "build/results/04";
    fixture::write(results / "runs/20261201T100000Z-1/results.json", results_for("k", true).dump());
    auto other = results_for("other", false);
    other["tests"] = nlohmann::json::array();
    fixture::write(results / "runs/20261201T110000Z-2/results.json", other.dump());
    grade::publish_latest(results, results / "runs/20261201T110000Z-2/results.json");
    fs::last_write_time(results / "runs/20261201T100000Z-1/results.json",
                        fs::file_time_type::clock::now() + std::chrono::hours(1));
    auto s = tools::lesson_status(L);
    CHECK(s[0].state == "passing");
    CHECK(s[0].detail == "all hidden tests passed (emu)");
    CHECK(s[1].detail.find("1 / 2 (provisional) at the last grade") == std::string::npos);  // no answers.md yet

    // A newer grade of k itself (EX=k) that fails is now k's last grade.
    fixture::write(results / "runs/20261201T120000Z-3/results.json", results_for("k", false).dump());
    fs::last_write_time(results / "runs/20261201T120000Z-3/results.json",
                        fs::file_time_type::clock::now() + std::chrono::hours(1));
    s = tools::lesson_status(L);
    CHECK(s[0].state == "in progress");
    CHECK(s[0].detail == "1 of 2 blanks filled; 5 of 6 tests passed at the last grade (emu)");

    // A grade that ran none of k's tests says why, not "0 of 0 tests passed".
    auto none = results_for("k", false);
    none["extra_data"]["exercises"]["k"]["tests_passed"] = 0;
    none["extra_data"]["exercises"]["k"]["tests_total"] = 0;
    none["extra_data"]["exercises"]["k"]["reasons"] = {"did not compile"};
    fixture::write(results / "runs/20261201T130000Z-4/results.json", none.dump());
    fs::last_write_time(results / "runs/20261201T130000Z-4/results.json",
                        fs::file_time_type::clock::now() + std::chrono::hours(2));
    s = tools::lesson_status(L);
    CHECK(s[0].detail == "1 of 2 blanks filled; the last grade (emu) ran no test: did not compile");
    fs::remove_all(root);
}

TEST_CASE("report: code, where it ran, failures, answers, hints", "[tools]") {
    fs::path root = fixture::make_repo();
    auto L = lesson::load_lesson(root, "04");
    lesson::sync_lesson(L, false);
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
    graded["extra_data"]["exercises"]["k"]["content_sha256"] =
        util::sha256_hex(fixture::read(root / "exercises/04-demo/k.cu"));
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

    CHECK_THROWS_AS(tools::write_report(L, {root / "no-such-folder", {}, {}}), util::UserError);
    fs::remove_all(root);
}

TEST_CASE("watch: one grade per burst of saves, a separator with the time, the fallback when nothing changes",
          "[tools]") {
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
        for (int i = 0; i < 200 && !fs::exists(pid_file); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
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

namespace {

// Lesson "04-demo" as the pipeline sees it: a core exercise k (normal 2, edge 1) with two written items, and an
// extension x (normal 2, edge 2).
lesson::Lesson demo_lesson() {
    lesson::Lesson L;
    L.id = L.slug = "04-demo";
    L.number = "04";
    L.core = "k";
    lesson::Exercise k;
    k.name = "k";
    k.core = true;
    k.points = {{"normal", 2}, {"edge", 1}};
    lesson::Exercise x;
    x.name = "x";
    x.points = {{"normal", 2}, {"edge", 2}};
    L.exercises = {k, x};
    L.written = {{"explanation", 1, "explanation", "k", "Explain"}, {"Q1", 2, "question", "k", "Q1"}};
    L.min_score = 5;
    return L;
}

// A results.json of lesson demo_lesson(), as `workbook grade` writes it (the fields the gradebook reads).
nlohmann::json demo_results(double normal, double q1, std::vector<std::string> reasons) {
    nlohmann::json r;
    r["score"] = normal + 1 + 1 + q1 + 3;
    r["max_score"] = 10;
    r["extra_data"] = {
        {"backend", "emu"},
        {"passed", reasons.empty()},
        {"core", {{"score", normal + 1 + 1 + q1}, {"max_score", 6}}},
        {"exercises",
         {{"k", {{"score", normal + 1}, {"groups", {{"normal", {{"score", normal}}}, {"edge", {{"score", 1}}}}}}},
          {"x", {{"score", 3}}}}},
        {"written", {{"explanation", {{"score", 1}}}, {"Q1", {{"score", q1}}}}},
        {"reasons", reasons}};
    return r;
}

}  // namespace

TEST_CASE("the gradebook has the core, each rubric line, each extension, the total and a reason", "[tools]") {
    const lesson::Lesson L = demo_lesson();
    std::vector<tools::GradebookRow> rows;
    rows.push_back({"alice", demo_results(2, 2, {}), ""});
    rows.push_back({"bob,jr",
                    demo_results(1, 0.5,
                                 {"k: 2 of 4 tests failed (timed out)",
                                  "k: vetoed: k.cu: code outside the blanks was changed (line 5)"}),
                    ""});
    rows.push_back({"=carol", nullptr, "the grader crashed (SIGSEGV, a segmentation fault)"});
    auto missing_x = demo_results(2, 2, {"missing files: x.cu"});
    missing_x["extra_data"]["exercises"].erase("x");  // an exercise the run did not grade shows 0, not a blank
    rows.push_back({"dave", missing_x, ""});
    const std::string csv = tools::gradebook_csv(L, rows);
    CHECK(csv ==
          "student,core (6),k normal (2),k edge (1),explanation (1),Q1 (2),x (4),total (10),passed,backend,reason\n"
          "alice,6,2,1,1,2,3,9,yes,emu,\n"
          "\"bob,jr\",3.5,1,1,1,0.5,3,6.5,no,emu,k: 2 of 4 tests failed (timed out); k: vetoed: k.cu: code outside the "
          "blanks was changed (line 5)\n"
          "'=carol,,,,,,,,,,\"the grader crashed (SIGSEGV, a segmentation fault)\"\n"
          "dave,6,2,1,1,2,0,9,no,emu,missing files: x.cu\n");
}

TEST_CASE("class grading: one folder per run, private copies, the gradebook always written", "[tools]") {
    fs::path root = fixture::make_repo();
    fixture::write(root / "subs/alice/k.cu", "alice");
    fixture::write(root / "subs/bob,jr/exercises/04-demo/k.cu", "bob");
    fixture::write(root / "subs/carol/k.cu", "carol");
    fixture::write(root / "subs/alice/padding.bin", std::string(2 << 20, 'p'));  // graded by nothing: copied empty
    fs::create_directory_symlink(root / "subs/alice", root / "subs/mallory");    // a link is refused, not followed
    fs::create_symlink(root / "subs/alice/k.cu", root / "subs/carol/x.cu");      // nor followed inside a hand-in
    const lesson::Lesson L = demo_lesson();
    std::vector<std::string> seen;
    std::vector<fs::path> copies;
    tools::GradeOneFn one = [&](const fs::path& sub, const fs::path& work, const std::string& label) {
        copies.push_back(sub);
        seen.push_back(label + "=" + fixture::read(sub / "k.cu"));
        CHECK(sub.filename() == "04-demo");
        CHECK(fs::is_directory(work));
        CHECK(fs::is_empty(work));
        tools::OneGrade g;
        if (label == "subs/alice") {
            CHECK(fs::exists(sub / "padding.bin"));  // named for the report's "ignored", its bytes not copied
            CHECK(fs::file_size(sub / "padding.bin") == 0);
            // Hostile: rewrites the next students' hand-ins and leaves a file in its own copy and work folder.
            fixture::write(root / "subs/bob,jr/exercises/04-demo/k.cu", "written by alice");
            fixture::write(root / "subs/carol/k.cu", "written by alice");
            fixture::write(sub / "leftover.txt", "alice was here");
            fixture::write(work / "leftover.o", "alice was here");
            g.results = demo_results(2, 2, {});
        } else if (label == "subs/carol") {
            CHECK(fs::is_symlink(sub / "x.cu"));  // copied as a link, for the grader to refuse
            throw std::runtime_error("boom");
        } else {
            CHECK_FALSE(fs::exists(sub / "leftover.txt"));
            CHECK_FALSE(fs::exists(work / "leftover.o"));
            g.results = demo_results(1, 1, {"k: 1 of 2 tests failed"});
            g.log = "grader log";
        }
        return g;
    };
    std::ostringstream log;
    auto first = tools::grade_class(root / "subs", root / "out", L, one, log);
    REQUIRE(first.rows.size() == 4);
    CHECK(first.not_graded == 2);
    CHECK(first.rows[3].student == "mallory");
    CHECK(first.rows[3].error.find("mallory is a symbolic link;") == 0);
    CHECK(seen == std::vector<std::string>{"subs/alice=alice", "subs/bob,jr=bob", "subs/carol=carol"});
    for (const auto& c : copies) CHECK_FALSE(fs::exists(c));  // removed after each student
    CHECK(fs::exists(first.dir / "students/alice/results.json"));
    CHECK(fixture::read(first.dir / "students/bob,jr/grade.log") == "grader log");
    CHECK_FALSE(fs::exists(first.dir / "students/carol/results.json"));
    const std::string csv = fixture::read(root / "out/gradebook.csv");
    CHECK(csv.find("\ncarol,,,,,,,,,,the grader failed: boom\n") != std::string::npos);
    CHECK(csv.find("\n\"bob,jr\",4,1,1,1,1,3,7,no,emu,k: 1 of 2 tests failed\n") != std::string::npos);

    // A second run keeps the first one's folder, results and gradebook; the links name the latest.
    auto second = tools::grade_class(root / "subs", root / "out", L, one, log);
    CHECK(second.dir != first.dir);
    CHECK(fs::exists(first.dir / "students/alice/results.json"));
    CHECK(fs::exists(first.dir / "gradebook.csv"));
    CHECK(fs::canonical(root / "out/gradebook.csv") == fs::canonical(second.gradebook));
    CHECK(fs::canonical(root / "out/latest") == fs::canonical(second.dir));
    CHECK_THROWS_AS(tools::grade_class(root / "missing", root / "out", L, one, log), util::UserError);
    fs::remove_all(root);
}

TEST_CASE("class grading: a crash, a hang, garbage or a leftover process cost that student's row only", "[tools]") {
    fs::path root = fixture::make_repo();
    for (const char* s : {"crash", "garbage", "good", "hang", "orphan", "usage"})
        fixture::write(root / "subs" / s / "k.cu", s);
    fixture::write(root / "result.json", demo_results(2, 2, {}).dump());
    const fs::path pidfile = root / "orphan.pid";
    // Stands in for `workbook grade …`: $6 is the submission label, $2 the private copy.
    const std::string script =
        "case \"$6\" in\n"
        "  */crash) kill -SEGV $$ ;;\n"
        "  */hang) sleep 30 ;;\n"
        "  */garbage) echo '{\"score\": ' ;;\n"
        "  */usage) echo \"workbook: $2/k.cu is not what we wanted.\" >&2; exit 2 ;;\n"
        "  */orphan) setsid sleep 300 </dev/null >/dev/null 2>&1 & echo $! > '" +
        pidfile.string() +
        "'\n"
        "            cat '" +
        (root / "result.json").string() +
        "' ;;\n"
        "  *) echo 'grading…' >&2; cat '" +
        (root / "result.json").string() +
        "' ;;\n"
        "esac\n";
    tools::ChildGradeOptions child;
    child.command = {"/bin/sh", "-c", script, "sh"};
    child.timeout_s = 2;
    std::ostringstream log;
    auto run = tools::grade_class(root / "subs", root / "out", demo_lesson(), tools::grade_in_child(child), log);
    REQUIRE(run.rows.size() == 6);
    std::map<std::string, std::string> error;
    for (const auto& r : run.rows) error[r.student] = r.results.is_object() ? "graded" : r.error;
    CHECK(error["crash"] == "the grader crashed (SIGSEGV, a segmentation fault)");
    CHECK(error["garbage"] == "the grader's output was not a results.json (exit status 0)");
    CHECK(error["good"] == "graded");
    CHECK(error["hang"] == "grading took longer than 2 s and was stopped");
    CHECK(error["orphan"] == "graded");
    CHECK(error["usage"] == "04-demo/k.cu is not what we wanted.");  // no private path in the gradebook
    CHECK(run.not_graded == 4);
    CHECK(fixture::read(run.dir / "students/good/grade.log") == "grading…\n");
    // The process the "orphan" student left running (in a session of its own) did not outlive its row.
    const pid_t orphan = std::stoi(fixture::read(pidfile));
    CHECK(::kill(orphan, 0) != 0);
    CHECK(fixture::read(run.gradebook).find("\nhang,,,,,,,,,,grading took longer than 2 s and was stopped\n") !=
          std::string::npos);
    CHECK(fixture::read(run.gradebook)
              .find("\ncrash,,,,,,,,,,\"the grader crashed (SIGSEGV, a segmentation fault)\"\n") != std::string::npos);
    fs::remove_all(root);
}

TEST_CASE("the gradescope bundle is a zip with the filled-in scripts and no solutions", "[tools]") {
    fs::path root = fixture::make_repo();
    auto L = lesson::load_lesson(root, "04");
    lesson::sync_lesson(L, false);
    fixture::write(root / "Makefile", "grade-04:\n\ttrue\n");
    CHECK_THROWS_AS(tools::write_gradescope_bundle(L, root / "build/gs.zip"), util::UserError);  // no templates yet
    fs::create_directories(root / "grader/gradescope");
    for (const char* t : {"setup.sh.in", "run_autograder.in"})
        fs::copy_file(fs::path(WORKBOOK_SOURCE_DIR) / "grader/gradescope" / t, root / "grader/gradescope" / t,
                      fs::copy_options::overwrite_existing);
    auto r = tools::write_gradescope_bundle(L, root / "build/gs.zip");
    CHECK(fs::exists(r.zip));
    const std::string run = tools::gradescope_script(L, "run_autograder");
    CHECK(run.find("@LESSON") == std::string::npos);
    CHECK(run.find("grade 04-demo --submission \"$SUB\"") != std::string::npos);
    CHECK(run.find("ROOT=\"${AUTOGRADER_ROOT:-/autograder}\"") != std::string::npos);
    CHECK(tools::gradescope_script(L, "setup.sh").find("--target workbook-grader-emu") != std::string::npos);

    const fs::path out = root / "unpacked";
    fs::create_directories(out);
    auto x = util::run_program({"cmake", "-E", "tar", "xf", r.zip.string()}, out);
    INFO(x.output);
    REQUIRE(x.exit_code == 0);
    CHECK(fixture::read(out / "run_autograder") == run);
    CHECK((fs::status(out / "run_autograder").permissions() & fs::perms::owner_exec) != fs::perms::none);
    CHECK((fs::status(out / "setup.sh").permissions() & fs::perms::owner_exec) != fs::perms::none);
    CHECK(fs::exists(out / "workbook/exercises/04-demo/k.cu"));
    CHECK(fs::exists(out / "workbook/Makefile"));
    CHECK_FALSE(fs::exists(out / "workbook/solutions"));
    CHECK_FALSE(fs::exists(out / "workbook/build"));
    if (!util::which("unzip").empty()) CHECK(util::run_program({"unzip", "-t", r.zip.string()}).exit_code == 0);
    fs::remove_all(root);
}

namespace {

std::string git_in(const fs::path& root, std::vector<std::string> args) {
    args.insert(args.begin(), {"git", "-C", root.string(), "-c", "user.name=t", "-c", "user.email=t@t"});
    auto r = util::run_program(args);
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    return r.output;
}

}  // namespace

TEST_CASE("the student edition: committed files only, no solutions, no instructor lines", "[tools]") {
    if (util::which("git").empty()) {
        WARN("git not installed");
        return;
    }
    fs::path root = fixture::make_repo();
    auto L = lesson::load_lesson(root, "04");
    lesson::sync_lesson(L, false);
    fixture::write(root / "docs/instructor-guide.md", "secret\n");
    fixture::write(root / "docs/student-guide.md", "hello\n");
    fixture::write(root / "README.md",
                   "# Course\n\nmake grade-04\nmake gradescope-04 <!-- instructor -->\n"
                   "<!-- instructor:begin -->\nInstructors: make solutions-branch\n<!-- instructor:end -->\nend\n");
    fixture::write(root / "tests/review/x_test.cpp", "int x;\n");
    fixture::write(root / "tests/setup/fake_test.sh", "#!/bin/sh\n");
    fixture::write(root / "grader/emulator/tests/programs/rmsnorm_fp32.cu", "kernel\n");
    fixture::write(root / "benchmarks/04-demo/bandwidth.cu", "built from the solutions\n");
    fs::path out = root.string() + "-student";
    CHECK_THROWS_AS(tools::make_student_edition(root, out), util::UserError);  // not a git repository yet
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
    CHECK_THROWS_AS(tools::make_student_edition(root, out), util::UserError);
    CHECK_THROWS_AS(tools::make_student_edition(root, root / "inside"), util::UserError);
    // A solution committed where students would get it stops the edition.
    fixture::write(root / "exercises/04-demo/leak.cu", fixture::kSolution);
    git_in(root, {"add", "-A"});
    git_in(root, {"commit", "-q", "-m", "leak"});
    CHECK_THROWS_AS(tools::make_student_edition(root, root.string() + "-student2"), util::UserError);
    CHECK_FALSE(fs::exists(root.string() + "-student2/lessons"));
    fs::remove_all(out);
    fs::remove_all(root.string() + "-student2");
    fs::remove_all(root);
}

TEST_CASE("the solutions branch is made in a worktree; the working tree is untouched", "[tools]") {
    if (util::which("git").empty()) {
        WARN("git not installed");
        return;
    }
    fs::path root = fixture::make_repo();
    auto L = lesson::load_lesson(root, "04");
    lesson::sync_lesson(L, false);
    auto git = [&](std::vector<std::string> args) {
        args.insert(args.begin(), {"git", "-C", root.string(), "-c", "user.name=t", "-c", "user.email=t@t"});
        auto r = util::run_program(args);
        INFO(r.output);
        REQUIRE(r.exit_code == 0);
        return r.output;
    };
    CHECK_THROWS_AS(tools::update_solutions_branch(root), util::UserError);  // not a repository yet
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

TEST_CASE("each grade run has its own results.json; results.json links to the latest finished one", "[tools]") {
    fs::path root = fixture::make_repo();
    const fs::path results = root / "build/results/04";
    // Two runs started together: both folders exist before either finishes, and neither is the other's.
    const fs::path a = grade::new_run_dir(results) / "results.json";
    fixture::write(a.parent_path() / ".started", "");
    const fs::path b = grade::new_run_dir(results) / "results.json";
    CHECK(a.parent_path() != b.parent_path());
    fixture::write(b, "{\"run\": \"b\"}");
    grade::publish_latest(results, b);
    fixture::write(a, "{\"run\": \"a\"}");  // a finishes last: the link follows it, b's file is untouched
    grade::publish_latest(results, a);
    CHECK(fs::is_symlink(results / "results.json"));
    CHECK(fixture::read(results / "results.json") == "{\"run\": \"a\"}");
    CHECK(fixture::read(b) == "{\"run\": \"b\"}");
    CHECK(grade::shown_link(results / "results.json", root) == "build/results/04/results.json");
    // The newest 20 finished runs are kept.
    for (int i = 0; i < 25; ++i) {
        const fs::path r = results / "runs" / ("2000-01-01T00-00-" + std::to_string(10 + i) + "Z-1") / "results.json";
        fixture::write(r, "{}");
    }
    fs::create_directories(results / "runs/1999-in-progress");  // no results.json yet: never removed
    grade::publish_latest(results, a);
    int finished = 0;
    for (const auto& d : fs::directory_iterator(results / "runs")) finished += fs::exists(d.path() / "results.json");
    CHECK(finished == 20);
    CHECK(fs::exists(a));
    CHECK(fs::exists(results / "runs/1999-in-progress"));
    fs::remove_all(root);
}
