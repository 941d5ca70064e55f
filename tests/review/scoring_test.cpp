// The scorer (grade/score.cpp) on runs built by hand: what a veto, a missing file and failed tests cost, and the
// reasons it gives for the gradebook.
#include "workbook_catch.hpp"

#include "grade/report.hpp"
#include "grade/results.hpp"
#include "grade/score.hpp"
#include "grade/verification.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <unistd.h>

using namespace workbook;
using namespace workbook::grade;

namespace {

lesson::Exercise exercise(const std::string& name, double normal, double edge, bool core) {
    lesson::Exercise e;
    e.name = name;
    e.points = {{"normal", normal}, {"edge", edge}};
    e.core = core;
    return e;
}

lesson::Lesson demo_lesson() {
    lesson::Lesson L;
    L.id = L.slug = "04-demo";
    L.number = "04";
    L.core = "k";
    L.exercises = {exercise("k", 2, 1, true), exercise("x", 2, 2, false)};
    L.written = {{"Q1", 2, "question", "k", "Q1"}};
    L.min_score = 4;
    return L;
}

TestOutcome outcome(const std::string& ex, const std::string& group, bool passed, const std::string& message = "") {
    TestOutcome t;
    t.test.exercise = ex;
    t.test.name = ex + ": " + group + (passed ? " ok" : " bad");
    t.test.group = group;
    t.passed = passed;
    t.message = message;
    return t;
}

Run run_of(const lesson::Lesson& L) {
    Run run;
    run.lesson = L;
    run.backend = Backend::emu;
    for (const auto& e : run.lesson.exercises) {
        ExerciseResult ex;
        ex.info = &e;
        ex.attempted_build = true;
        ex.build.ok = true;
        run.exercises.push_back(ex);
    }
    run.written.push_back({"Q1", "question", "k", "", 2, 2});
    return run;
}

}  // namespace

TEST_CASE("a veto costs the exercise's code points, whatever its tests found", "[tools]") {
    Run run = run_of(demo_lesson());
    run.exercises[0].tests = {outcome("k", "normal", true), outcome("k", "edge", true)};
    run.exercises[1].tests = {outcome("x", "normal", true), outcome("x", "edge", false, "timed out after 30 s")};
    run.vetoes.push_back(
        {"k", "k.cu: code outside the blanks was changed (line 5); only the blanks may be edited.", ""});
    score_run(run);
    CHECK(run.exercises[0].all_passed);  // what the tests found
    CHECK(run.exercises[0].vetoed);
    CHECK(run.exercises[0].earned == 0);
    CHECK(run.core_score == 2);           // the written answer only
    CHECK(run.exercises[1].earned == 2);  // x is not vetoed: its normal group
    CHECK(run.total_score == 4);
    CHECK_FALSE(run.passed);
    CHECK(run.reasons == std::vector<std::string>{"k: vetoed: k.cu: code outside the blanks was changed (line 5)",
                                                  "x: 1 of 2 tests failed (timed out)"});
    const auto j = results_json(run, "report");
    for (const auto& t : j["tests"]) {
        if (t["tags"][0] != "k" || t["tags"][1] == "question") continue;
        CHECK(t["score"] == 0.0);
        CHECK(t["status"] == "passed");
        CHECK(t["output"].get<std::string>().rfind("Vetoed: ", 0) == 0);
    }
    CHECK(j["score"] == 4.0);
    CHECK(j["extra_data"]["exercises"]["k"]["vetoed"] == true);
    CHECK(j["extra_data"]["exercises"]["k"]["score"] == 0.0);
}

TEST_CASE("a missing file costs its own exercise only, and the reasons say which", "[tools]") {
    Run run = run_of(demo_lesson());
    run.exercises[0].tests = {outcome("k", "normal", true),
                              outcome("k", "edge", false, "launch_k: the submitted code crashed (SIGSEGV)")};
    run.exercises[1].missing = "x.cu is missing";
    run.exercises[1].attempted_build = false;
    run.written[0].score = 1;
    score_run(run);
    CHECK(run.exercises[0].earned == 2);
    CHECK(run.exercises[1].earned == 0);
    CHECK(run.exercises[1].groups.at(0).note == "not run: x.cu is missing");
    CHECK(run.reasons == std::vector<std::string>{"missing files: x.cu", "k: 1 of 2 tests failed (crashed)",
                                                  "written answers: 1 of 2 points (provisional)"});
    const auto j = results_json(run, "report");
    CHECK(j["extra_data"]["exercises"]["x"]["missing"] == "x.cu is missing");
    CHECK(j["score"] == 3.0);
}

TEST_CASE("bandwidth a GPU test measured is reported as advice and fills Gradescope's leaderboard", "[tools]") {
    Run run = run_of(demo_lesson());
    TestOutcome timed = outcome("x", "normal", true);
    timed.measurements.push_back({{"kind", "bandwidth"},
                                  {"shape", "16384x4096"},
                                  {"dtype", "fp32"},
                                  {"measured", true},
                                  {"kernel_tb_per_s", 3.9104},
                                  {"copy_tb_per_s", 4.25},
                                  {"fraction_of_copy", 0.92}});
    TestOutcome refused = outcome("k", "normal", true);
    refused.measurements.push_back({{"kind", "bandwidth"},
                                    {"shape", "64x4096"},
                                    {"dtype", "fp32"},
                                    {"measured", false},
                                    {"why_not", "not timed: the first run failed"}});
    run.exercises[0].tests = {refused, outcome("k", "edge", true)};
    run.exercises[1].tests = {timed, outcome("x", "edge", true)};
    score_run(run);
    // Points are the tests' alone.
    CHECK(run.exercises[1].earned == 4);
    run.backend = Backend::gpu;
    const auto r = results_json(run, "");
    REQUIRE(r.contains("leaderboard"));
    REQUIRE(r["leaderboard"].size() == 1);  // the refused measurement is no entry
    CHECK(r["leaderboard"][0]["name"] == "x fp32 16384x4096 (TB/s)");
    CHECK(r["leaderboard"][0]["value"] == 3.91);
    CHECK(r["leaderboard"][0]["order"] == "desc");
    CHECK(r["extra_data"]["performance"].size() == 2);
    const std::string text = format_report(run, false);
    CHECK_THAT(text, Catch::Matchers::Contains("x fp32 16384x4096: 3.91 TB/s, 92% of the device-to-device copy"));
    CHECK_THAT(text, Catch::Matchers::Contains("k fp32 64x4096: not measured (not timed: the first run failed)"));
    CHECK_THAT(text, Catch::Matchers::Contains("advice, no points"));
    // The emulator measures nothing a leaderboard could show.
    run.backend = Backend::emu;
    CHECK_FALSE(results_json(run, "").contains("leaderboard"));
}

TEST_CASE("compute-sanitizer's findings are a report section beside the tests", "[tools]") {
    Run run = run_of(demo_lesson());
    run.exercises[0].tests = {outcome("k", "normal", true), outcome("k", "edge", true)};
    run.sanitize = true;
    run.backend = Backend::gpu;
    run.sanitizer = {{"k",
                      {{"memcheck",
                        {{"tests", 2},
                         {"tests_with_errors", 1},
                         {"errors", 3},
                         {"findings", {"Invalid __global__ write of size 4 bytes\nat k()+0x10 in k.cu:7"}},
                         {"not_run", nlohmann::json::array()}}},
                       {"racecheck",
                        {{"tests", 2},
                         {"tests_with_errors", 0},
                         {"errors", 0},
                         {"findings", nlohmann::json::array()},
                         {"not_run", nlohmann::json::array()}}}}}};
    score_run(run);
    const std::string text = format_report(run, false);
    CHECK_THAT(text, Catch::Matchers::Contains("k memcheck: 3 errors in 1 of 2 tests"));
    CHECK_THAT(text, Catch::Matchers::Contains("      at k()+0x10 in k.cu:7"));
    CHECK_THAT(text, Catch::Matchers::Contains("k racecheck: clean in 2 tests"));
    CHECK_THAT(text, Catch::Matchers::Contains("SANITIZE=1"));
    CHECK(results_json(run, "")["extra_data"]["sanitizer"]["k"]["memcheck"]["errors"] == 3);
}

TEST_CASE("a GPU verification counts only where this account's grader sealed it", "[tools]") {
    namespace fs = std::filesystem;
    const fs::path tmp = fs::temp_directory_path() / ("wb-verify-" + std::to_string(::getpid()));
    fs::remove_all(tmp);
    const fs::path repo = tmp / "repo", mine = tmp / "state-mine", other = tmp / "state-other";
    fs::create_directories(repo / ".workbook");
    const char* was = std::getenv("XDG_STATE_HOME");
    const std::string saved = was ? was : "";
    auto account = [&](const fs::path& state) { ::setenv("XDG_STATE_HOME", state.c_str(), 1); };
    const lesson::Lesson L = demo_lesson();
    auto a_run = [&](Backend b) {
        Run run = run_of(L);
        run.backend = b;
        run.gpu_name = "a GPU";
        for (auto& ex : run.exercises) ex.content_hash = "hash-of-" + ex.info->name;
        return run;
    };
    auto read_json = [](const fs::path& p) {
        std::ifstream in(p);
        return nlohmann::json::parse(in);
    };

    // Hand-written (a repository that commits .workbook/, as GitHub Classroom's can): not accepted, and said.
    account(mine);
    {
        std::ofstream(repo / ".workbook" / "verified.json")
            << R"({"hashes": {"hash-of-k": {"lesson": "04-demo", "exercise": "k", "gpu": "H200", "date": "x",
                  "all_passed": true, "seal": "00"}, "hash-of-x": {"lesson": "04-demo", "exercise": "x"}}})";
        Run forged = a_run(Backend::emu);
        update_gpu_verification(forged, repo);
        CHECK_FALSE(forged.exercises[0].gpu_verified);
        CHECK_FALSE(forged.gpu_verification_done);
        REQUIRE(forged.notes.size() == 1);
        CHECK(forged.notes[0].find("k.cu, x.cu") != std::string::npos);
        CHECK(forged.notes[0].find("does not count") != std::string::npos);
    }
    // A gpu run seals what it graded, in place of the forgery; an emulator run of the same content then counts it.
    Run gpu = a_run(Backend::gpu);
    update_gpu_verification(gpu, repo);
    CHECK(gpu.gpu_verification_done);
    const auto file = read_json(repo / ".workbook" / "verified.json");
    CHECK(file["hashes"]["hash-of-k"]["gpu"] == "a GPU");
    CHECK(file["hashes"]["hash-of-k"]["seal"].get<std::string>().size() == 64);
    CHECK(fs::exists(mine / "workbook" / "gpu-verification.key"));
    CHECK((fs::status(mine / "workbook").permissions() & (fs::perms::group_all | fs::perms::others_all)) ==
          fs::perms::none);
    Run later = a_run(Backend::emu);
    update_gpu_verification(later, repo);
    CHECK(later.gpu_verification_done);
    CHECK(later.notes.empty());
    // A sealed record edited (passed turned into not passed, or back) no longer counts.
    {
        auto edited = file;
        edited["hashes"]["hash-of-k"]["all_passed"] = !edited["hashes"]["hash-of-k"]["all_passed"].get<bool>();
        std::ofstream(repo / ".workbook" / "verified.json") << edited.dump();
        Run r = a_run(Backend::emu);
        update_gpu_verification(r, repo);
        CHECK_FALSE(r.exercises[0].gpu_verified);
        CHECK(r.exercises[1].gpu_verified);
        std::ofstream(repo / ".workbook" / "verified.json") << file.dump();
    }
    // The same file on another account (another machine, a Classroom runner): nothing counts.
    account(other);
    Run elsewhere = a_run(Backend::emu);
    update_gpu_verification(elsewhere, repo);
    CHECK_FALSE(elsewhere.gpu_verification_done);
    CHECK_FALSE(elsewhere.exercises[0].gpu_verified);
    CHECK_FALSE(fs::exists(other / "workbook"));  // an emulator run makes no key

    if (was) ::setenv("XDG_STATE_HOME", saved.c_str(), 1);
    else ::unsetenv("XDG_STATE_HOME");
    fs::remove_all(tmp);
}

TEST_CASE("the replay command never carries a folder name that a shell or make would run", "[tools]") {
    Run run = run_of(demo_lesson());
    run.seed = 7;
    auto replay = [&](const std::string& label) {
        run.submission_label = label;
        return replay_command(run);
    };
    CHECK(replay("exercises/04-demo") == "make grade-04 SEED=7 BACKEND=emu");
    CHECK(replay("subs/alice") == "make grade-04 SEED=7 SUBMISSION=subs/alice BACKEND=emu");
    CHECK(replay("subs/my work") == "make grade-04 SEED=7 SUBMISSION='subs/my work' BACKEND=emu");
    CHECK(replay("subs/z;touch pwned") == "make grade-04 SEED=7 SUBMISSION='subs/z;touch pwned' BACKEND=emu");
    // Class hand-ins named so: pasted into a shell, the old replay ran the command in the name.
    for (const char* hostile :
         {"subs/x$(touch${IFS}pwned)", "subs/y`touch${IFS}pwned`", "subs/it's", "subs/q\"q", "subs/back\\slash"}) {
        const std::string r = replay(hostile);
        INFO(r);
        CHECK(r.find("SUBMISSION=<folder> ") != std::string::npos);
        CHECK(r.find("pwned") == std::string::npos);
        CHECK(r.find("whose name a shell would run as code") != std::string::npos);
    }
}
