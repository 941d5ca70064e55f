// Grades the known answers of a lesson with the real `workbook grade` command and checks the verdicts:
//   --solutions        every solution earns every code point (lesson passes)
//   --starters         every untouched starter fails every hidden test, with the "fill the blanks" message; a bug
//                      hunt's starter (fix regions only) fails some of its tests
//   --wrong NAME       a known wrong answer (solutions/<lesson>/wrong/wrong.json) fails the groups it names, and is
//                      vetoed when it says so ("veto"), by a veto whose sentence holds "veto_says" when given;
//                      graded with the entry's "time_limit_s" as the per-test limit when it has one (a hang)
//   --alt NAME         a correct answer written differently (solutions/<lesson>/alt/alt.json) passes every test
// A known answer is built the way a student would write it: the solution with the entry's delta applied
// (lesson/answers.hpp), so an answer given as blank fills differs from the starter only inside blanks.
#include <nlohmann/json.hpp>

#include "test_files.hpp"

#include "lesson/answers.hpp"
#include "lesson/catalogue.hpp"
#include "lesson/lesson.hpp"
#include "lesson/markers.hpp"

#include <sys/prctl.h>
#include <sys/wait.h>

#include <cerrno>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <chrono>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

struct Options {
    fs::path root, workbook, work;
    std::string lesson, mode, name, backend = "emu";
    bool sanitize = false;  // --sanitize (gpu): compute-sanitizer's findings are checked too
    std::string
        sanitize_tools;  // --sanitize-tools a,b: only these tools (a wrong answer: default its expect.sanitizer)
    // An entry's "time_limit_s": the grade's per-test limit (WORKBOOK_TEST_TIMEOUT) for an answer that hangs, so that
    // its test waits seconds, not the default 30 s limit's watchdog, for the time-out that rejects it. 0: the default.
    int time_limit_s = 0;
};

using wbtest::read_file;
using wbtest::write_file;

// Whether this program is the subreaper of everything it starts (main): a process a grade left running, whatever it
// did to leave its process group, is then handed to us when its parents end, and is a child of ours.
bool g_subreaper = false;

// Waits up to `limit` for what the grade left running, and returns at once when nothing is: with no child left (zombies
// reaped), no process of the answer exists that could still write a file. Without the subreaper: the whole limit.
void wait_for_leftovers(std::chrono::milliseconds limit) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < deadline) {
        if (g_subreaper) {
            pid_t reaped;
            while ((reaped = ::waitpid(-1, nullptr, WNOHANG)) > 0) {}
            if (reaped < 0 && errno == ECHILD) return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
}

// A submission folder holding every exercise file of the lesson: solutions (markers stripped), the answers, and
// `exercise_text` in place of one exercise's file when given.
fs::path make_submission(const Options& o, const std::string& exercise, const std::string* exercise_text) {
    // A classmate's folder beside every submission, with a secret no submission may be able to print: in a comment,
    // and on a line of code, which a compiler quotes when it reports an error there.
    write_file(o.work / "classmate" / "rmsnorm.cu",
               "// wb-classmate-secret\nfloat wb_classmate_total = 0.0f;  // wb-classmate-secret\n");
    const fs::path dir = o.work / ("submission-" + (o.name.empty() ? o.mode : o.name));
    fs::remove_all(dir);
    fs::create_directories(dir);
    for (const auto& e : fs::directory_iterator(o.root / "solutions" / o.lesson)) {
        if (!e.is_regular_file()) continue;
        const auto file = e.path().filename();
        if (file.extension() == ".cu")
            write_file(dir / file, workbook::lesson::strip_markers(read_file(e.path()), file.string()).text);
        else if (file == "answers.md") fs::copy_file(e.path(), dir / file);
    }
    if (exercise_text) write_file(dir / (exercise + ".cu"), *exercise_text);
    return dir;
}

struct Grade {
    int exit_code;
    json results;
    std::string output;
};

Grade run_grade(const Options& o, const std::string& args) {
    const fs::path out = o.work / ("results-" + (o.name.empty() ? o.mode : o.name) + ".json");
    fs::remove(out);
    // A secret in the grader's environment: no submission may see it (the worker gets an environment of its own).
    const std::string limit = o.time_limit_s > 0 ? "WORKBOOK_TEST_TIMEOUT=" + std::to_string(o.time_limit_s) + " " : "";
    const std::string cmd = "cd '" + o.root.string() + "' && " + limit + "WB_SECRET_CANARY=wb-secret-canary-7f3a '" +
                            o.workbook.string() + "' grade " + o.lesson.substr(0, o.lesson.find('-')) + " --backend " +
                            o.backend + (o.sanitize ? " --sanitize" : "") +
                            (o.sanitize && !o.sanitize_tools.empty() ? " --sanitize-tools " + o.sanitize_tools : "") +
                            " --json-out '" + out.string() + "' " + args + " 2>&1";
    Grade g{};
    FILE* pipe = popen(cmd.c_str(), "r");
    char buf[4096];
    while (pipe && fgets(buf, sizeof buf, pipe)) g.output += buf;
    int status = pipe ? pclose(pipe) : -1;
    g.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
    if (!fs::exists(out)) throw std::runtime_error("workbook wrote no results.json. Its output:\n" + g.output);
    g.results = json::parse(read_file(out));
    return g;
}

bool has_tag(const json& test, const std::string& tag) {
    for (const auto& t : test.value("tags", json::array()))
        if (t == tag) return true;
    return false;
}

// Hidden tests (not written-answer checks) of one exercise.
std::vector<json> code_tests(const json& results, const std::string& exercise) {
    std::vector<json> out;
    for (const auto& t : results.at("tests"))
        if (has_tag(t, exercise) && (has_tag(t, "normal") || has_tag(t, "edge"))) out.push_back(t);
    return out;
}

int fail(const std::string& why, const Grade& g) {
    std::cerr << "FAILED: " << why << "\n--- workbook output ---\n" << g.output << "\n";
    return 1;
}

// The entry of a known-answer list, read by the grader's one reader of the lists (lesson/catalogue.hpp).
json find_entry(const fs::path& list, const std::string& name) {
    return workbook::lesson::find_known_answer(list, list.string(), name).entry;
}

int check_solutions(const Options& o) {
    Grade g = run_grade(o, "--solutions");
    for (const auto& t : g.results.at("tests"))
        if ((has_tag(t, "normal") || has_tag(t, "edge")) && t.at("status") != "passed")
            return fail("a solution failed hidden test '" + t.at("name").get<std::string>() + "'", g);
    if (g.exit_code != 0 || !g.results.at("extra_data").at("passed").get<bool>())
        return fail("the solutions do not pass the lesson", g);
    if (g.output.find("review: ") != std::string::npos)
        return fail("a review comment fires on a correct solution (wrong advice)", g);
    if (o.sanitize) {
        // Every solution is clean under all four tools, and each tool ran every test to its end.
        const json& san = g.results.at("extra_data").at("sanitizer");
        if (!san.is_object() || san.empty()) return fail("--sanitize: no compute-sanitizer findings were recorded", g);
        for (const auto& [ex, tools] : san.items())
            for (const auto& [tool, r] : tools.items())
                if (r.at("errors").get<int>() != 0 || !r.at("not_run").empty())
                    return fail("compute-sanitizer " + tool + " on the solution of " + ex + ": " + r.dump(), g);
        std::cout << "solutions: clean under memcheck, racecheck, synccheck and initcheck\n";
    }
    std::cout << "solutions: every hidden test passed, lesson passed\n";
    return 0;
}

// Exercises whose blanks are all fix regions (bug hunts): their starter is a running kernel with one bug.
std::set<std::string> bug_hunts(const Options& o) {
    std::set<std::string> out;
    for (const auto& e : fs::directory_iterator(o.root / "solutions" / o.lesson)) {
        if (e.path().extension() != ".cu") continue;
        const auto c = workbook::lesson::make_starter(read_file(e.path()), e.path().filename().string());
        bool all_fix = !c.blanks.empty();
        for (const auto& b : c.blanks) all_fix = all_fix && b.fix;
        if (all_fix) out.insert(e.path().stem().string());
    }
    return out;
}

int check_starters(const Options& o) {
    const fs::path dir = o.work / "submission-starters";
    fs::remove_all(dir);
    fs::copy(o.root / "exercises" / o.lesson, dir, fs::copy_options::recursive);
    Grade g = run_grade(o, "--submission '" + dir.string() + "'");
    if (g.exit_code == 0) return fail("the untouched starters pass the lesson", g);
    // A bug hunt's starter passes the tests its bug does not meet; it must fail some, and its known answer "starter"
    // (wrong.json) checks which and why.
    const std::set<std::string> hunts = bug_hunts(o);
    std::set<std::string> hunts_failing;
    for (const auto& t : g.results.at("tests")) {
        if (!has_tag(t, "normal") && !has_tag(t, "edge")) continue;
        bool hunt = false;
        for (const auto& h : hunts)
            if (has_tag(t, h)) {
                hunt = true;
                if (t.at("status") == "failed") hunts_failing.insert(h);
            }
        if (!hunt && t.at("status") == "passed")
            return fail("an untouched starter passed hidden test '" + t.at("name").get<std::string>() + "'", g);
    }
    for (const auto& h : hunts)
        if (!hunts_failing.count(h)) return fail("the bug hunt '" + h + "' passes every hidden test as it ships", g);
    if (g.output.find("______") == std::string::npos && g.output.find("blank") == std::string::npos)
        return fail("the report does not tell the student to fill the blanks", g);
    std::cout << "starters: every hidden test failed with the fill-the-blanks message\n";
    return 0;
}

// Everything the grade reported about an exercise's failed hidden tests: messages and the submission's output.
std::string failure_text(const json& results, const std::string& exercise) {
    std::string text;
    for (const auto& t : code_tests(results, exercise))
        if (t.at("status") == "failed") text += t.value("output", std::string()) + "\n";
    return text;
}

// "{root}/x", "{build}/x" -> paths of this checkout and its build folder (the folder of the workbook command's build).
fs::path expand(const Options& o, std::string p) {
    const fs::path build = o.workbook.parent_path().parent_path().parent_path();
    for (const auto& [key, value] : {std::pair<std::string, fs::path>{"{root}", o.root}, {"{build}", build}})
        if (p.rfind(key, 0) == 0) p = value.string() + p.substr(key.size());
    return p;
}

// What a file is before and after a grade: its bytes, or absent.
std::string snapshot(const fs::path& p) {
    std::error_code ec;
    return fs::is_regular_file(p, ec) ? "file:" + read_file(p) : fs::exists(p, ec) ? "other" : "absent";
}

int check_wrong(Options o) {
    const fs::path base = o.root / "solutions" / o.lesson;
    const json e = find_entry(base / "wrong" / "wrong.json", o.name);
    o.time_limit_s = e.value("time_limit_s", 0);
    const std::string ex = e.at("exercise");
    // Built the way a student would write it: the solution with the entry's delta applied (lesson/answers.hpp).
    const std::string text = workbook::lesson::known_answer_text(workbook::lesson::load_lesson(o.root, o.lesson), e);
    const json& expect = e.at("expect");
    // Files a tampering answer aims at: each must come out of the grade as it went in, and canaries must not appear.
    std::map<std::string, std::string> before;
    for (const auto& p : expect.value("unchanged", json::array())) before[p] = snapshot(expand(o, p));
    for (const auto& p : expect.value("absent", json::array())) fs::remove(expand(o, p));
    const fs::path submission = make_submission(o, ex, &text);
    // Under --sanitize a wrong answer runs only the tools that must report it, unless the tools were named.
    Options graded = o;
    if (o.sanitize && o.sanitize_tools.empty())
        for (const auto& tool : expect.value("sanitizer", json::array()))
            graded.sanitize_tools += (graded.sanitize_tools.empty() ? "" : ",") + tool.get<std::string>();
    Grade g = run_grade(graded, "--ex " + ex + " --submission '" + submission.string() + "'");
    // A bug only the emulator can see (registers a GPU happens to leave zero): on gpu its grade is reported, not judged.
    if (o.backend == "gpu" && expect.contains("emu_only")) {
        std::cout << "wrong answer '" << o.name << "' on gpu: " << (g.exit_code == 0 ? "passed" : "rejected")
                  << " (emu only: " << expect["emu_only"].get<std::string>() << ")\n";
        return 0;
    }
    if (g.exit_code == 0) return fail("wrong answer '" + o.name + "' passed the lesson", g);
    const std::string failures = failure_text(g.results, ex);
    // "message": words of the grader or the judge, on every backend; "emu_message": the emulator's own words, looked
    // for where the exercise's tests ran on the emulator (a GPU reports the same bug in its own terms, or not at all).
    const bool emulated = g.results.at("extra_data").at("exercises").at(ex).at("backend") == "emu";
    for (const char* key : {"message", "emu_message"}) {
        if (std::string(key) == "emu_message" && !emulated) continue;
        for (const auto& m : expect.value(key, json::array()))
            if (failures.find(m.get<std::string>()) == std::string::npos)
                return fail(
                    "no failed test says '" + m.get<std::string>() + "' (the reason this answer must be rejected for)",
                    g);
    }
    for (const auto& m : expect.value("not_message", json::array()))
        if (failures.find(m.get<std::string>()) != std::string::npos ||
            g.output.find(m.get<std::string>()) != std::string::npos)
            return fail("the grade says '" + m.get<std::string>() + "', which it must not", g);
    if (expect.contains("absent")) {
        // A process the answer left behind would write its canary a little later: give it the time to (3 s), or none
        // when no process is left (wait_for_leftovers).
        wait_for_leftovers(std::chrono::seconds(3));
        for (const auto& p : expect["absent"])
            if (fs::exists(expand(o, p))) return fail("the answer left " + p.get<std::string>() + " behind", g);
    }
    for (const auto& [p, was] : before)
        if (snapshot(expand(o, p)) != was) return fail("the answer changed " + p + " during the grade", g);
    // Files the grader itself may write during a grade (verified.json after a gpu run) must not hold the forgery.
    for (const auto& pair : expect.value("file_lacks", json::array())) {
        const std::string now = snapshot(expand(o, pair.at(0).get<std::string>()));
        if (now.find(pair.at(1).get<std::string>()) != std::string::npos)
            return fail("the answer's forgery is in " + pair.at(0).get<std::string>(), g);
    }
    const auto tests = code_tests(g.results, ex);
    if (tests.empty()) return fail("no hidden test of '" + ex + "' was reported", g);
    for (const auto& group : expect.value("fails_groups", json::array())) {
        bool failed = false;
        for (const auto& t : tests) failed |= has_tag(t, group) && t.at("status") == "failed";
        if (!failed)
            return fail("wrong answer '" + o.name + "' passed every '" + group.get<std::string>() + "' test", g);
    }
    for (const auto& needle : expect.value("fails_tests", json::array())) {
        bool failed = false;
        for (const auto& t : tests)
            failed |= t.at("name").get<std::string>().find(needle.get<std::string>()) != std::string::npos &&
                      t.at("status") == "failed";
        if (!failed) return fail("no failed test matches '" + needle.get<std::string>() + "'", g);
    }
    if (expect.contains("veto")) {
        if (g.results.at("extra_data").at("vetoes").empty())
            return fail("expected a veto (" + expect["veto"].get<std::string>() + "), got none", g);
        // A veto costs the exercise's code points everywhere a score is recorded: every hidden test, the exercise's
        // score, and the run's total (which here holds that exercise alone, beside the written answers for the core).
        for (const auto& t : tests)
            if (t.at("score").get<double>() != 0.0)
                return fail("vetoed answer '" + o.name + "' keeps " + t.at("score").dump() + " points for '" +
                                t.at("name").get<std::string>() + "'",
                            g);
        const json& per = g.results.at("extra_data").at("exercises").at(ex);
        if (per.at("score").get<double>() != 0.0 || !per.at("vetoed").get<bool>())
            return fail("vetoed answer '" + o.name + "': extra_data.exercises." + ex + " is " + per.dump(), g);
        double written = 0;
        for (const auto& t : g.results.at("tests"))
            if (has_tag(t, "provisional")) written += t.at("score").get<double>();
        if (std::abs(g.results.at("score").get<double>() - written) > 1e-6)
            return fail("vetoed answer '" + o.name + "': the total score " + g.results.at("score").dump() +
                            " holds more than the written answers' " + std::to_string(written),
                        g);
    }
    // The right veto, not just any: one of them says this (part of its one sentence).
    if (expect.contains("veto_says")) {
        const std::string says = expect["veto_says"];
        bool said = false;
        for (const auto& v : g.results.at("extra_data").at("vetoes"))
            said |= v.value("reason", std::string()).find(says) != std::string::npos;
        if (!said) return fail("no veto says \"" + says + "\"", g);
    }
    if (o.sanitize) {
        // Which tool saw the bug (printed for every answer); the tools the entry names must each have reported it.
        const json& san = g.results.at("extra_data").at("sanitizer");
        const json by_tool = san.is_object() ? san.value(ex, json::object()) : json::object();
        std::string seen;
        for (const auto& [tool, r] : by_tool.items()) seen += " " + tool + "=" + std::to_string(r.value("errors", 0));
        std::cout << "wrong answer '" << o.name << "' compute-sanitizer errors:" << (seen.empty() ? " none ran" : seen)
                  << "\n";
        for (const auto& tool : expect.value("sanitizer", json::array()))
            if (by_tool.value(tool.get<std::string>(), json::object()).value("errors", 0) == 0)
                return fail(
                    "compute-sanitizer " + tool.get<std::string>() + " did not report wrong answer '" + o.name + "'",
                    g);
    }
    std::cout << "wrong answer '" << o.name << "' rejected (" << expect.value("reason", "") << ")\n";
    return 0;
}

int check_alt(const Options& o) {
    const fs::path base = o.root / "solutions" / o.lesson;
    const json e = find_entry(base / "alt" / "alt.json", o.name);
    const std::string ex = e.at("exercise");
    const std::string text = workbook::lesson::known_answer_text(workbook::lesson::load_lesson(o.root, o.lesson), e);
    Grade g = run_grade(o, "--ex " + ex + " --submission '" + make_submission(o, ex, &text).string() + "'");
    const auto tests = code_tests(g.results, ex);
    if (tests.empty()) return fail("no hidden test of '" + ex + "' was reported", g);
    for (const auto& t : tests)
        if (t.at("status") != "passed")
            return fail("correct alternative '" + o.name + "' failed '" + t.at("name").get<std::string>() + "'", g);
    std::cout << "alternative '" << o.name << "' passes every hidden test of " << ex << "\n";
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) throw std::runtime_error(a + " needs a value");
            return argv[++i];
        };
        if (a == "--root") o.root = next();
        else if (a == "--workbook") o.workbook = next();
        else if (a == "--work") o.work = next();
        else if (a == "--backend") o.backend = next();
        else if (a == "--lesson") o.lesson = next();
        else if (a == "--sanitize") o.sanitize = true;
        else if (a == "--sanitize-tools") {
            o.sanitize = true;
            o.sanitize_tools = next();
        } else if (a == "--solutions" || a == "--starters") o.mode = a.substr(2);
        else if (a == "--wrong" || a == "--alt") {
            o.mode = a.substr(2);
            o.name = next();
        } else {
            std::cerr << "unknown argument " << a << "\n";
            return 2;
        }
    }
    g_subreaper = ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0;
    try {
        fs::create_directories(o.work);
        if (o.lesson.empty()) throw std::runtime_error("say which lesson: --lesson SLUG");
        if (o.mode == "solutions") return check_solutions(o);
        if (o.mode == "starters") return check_starters(o);
        if (o.mode == "wrong") return check_wrong(o);
        if (o.mode == "alt") return check_alt(o);
        std::cerr << "usage: known_answers --root DIR --workbook EXE --work DIR --lesson SLUG [--backend B] "
                     "[--sanitize [--sanitize-tools a,b]] (--solutions|--starters|--wrong N|--alt N)\n";
        return 2;
    } catch (const std::exception& ex) {
        std::cerr << "FAILED: " << ex.what() << "\n";
        return 1;
    }
}
