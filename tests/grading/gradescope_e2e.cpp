// The Gradescope bundle end to end, as Gradescope runs it, against a fake autograder tree in a temporary folder:
// `workbook gradescope 04` writes the bundle, it is unpacked into <tree>/source, the bundle's own setup.sh runs
// (with the packages installed already, and the build folder of this checkout, so it only brings that up to date),
// then the bundle's run_autograder grades, on the emulator:
//   correct   the solutions (EX=rmsnorm)                       every code point, lesson passed
//   wrong     a vetoed answer (host_reference, EX=rmsnorm)      0 code points although its tests pass
//   partial   only rmsnorm.cu (a Latin-1 comment) and answers.md  rmsnorm graded with a warning, every other
//             (whole lesson)                                                exercise missing with 0
//   hostile   a launcher that forges results.json and leaves a process behind to keep forging it, a link to
//             /etc/passwd, a binary file, an uploaded results.json                the grader's results stand
//   broken    no grader at all                                  a valid results.json with score 0
// Every results.json is checked against Gradescope's format.
//   gradescope_e2e --root DIR --workbook EXE --build DIR --work DIR
#include <nlohmann/json.hpp>

#include "test_files.hpp"

#include "lesson/markers.hpp"

#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

struct Options {
    fs::path root, workbook, build, work;
};

using wbtest::read_file;
using wbtest::write_file;

std::string quote(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

struct Run {
    int exit_code;
    std::string output;
};

Run sh(const std::string& cmd) {
    Run r{};
    FILE* pipe = popen((cmd + " 2>&1").c_str(), "r");
    char buf[4096];
    while (pipe && fgets(buf, sizeof buf, pipe)) r.output += buf;
    const int status = pipe ? pclose(pipe) : -1;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
    return r;
}

struct Failure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

void require(bool ok, const std::string& what, const std::string& context = "") {
    if (!ok) throw Failure(what + (context.empty() ? "" : "\n--- output ---\n" + context));
}

bool has_tag(const json& t, const std::string& tag) {
    for (const auto& x : t.value("tags", json::array()))
        if (x == tag) return true;
    return false;
}

// Gradescope's results.json: a numeric score, tests with name/score/max_score/status, visibility values it knows.
void check_format(const json& r, const std::string& label) {
    require(r.is_object() && r.contains("score") && r["score"].is_number(), label + ": no numeric score");
    require(r.value("output", std::string("?")).size() > 0, label + ": no output for the student");
    require(r.contains("tests") && r["tests"].is_array(), label + ": no tests array");
    for (const auto& t : r["tests"]) {
        require(t.contains("name") && t["name"].is_string(), label + ": a test without a name");
        require(t.value("score", -1.0) >= 0 && t.value("max_score", -1.0) >= t.value("score", 0.0),
                label + ": test '" + t.value("name", "") + "' has an impossible score");
        const std::string status = t.value("status", "");
        require(status == "passed" || status == "failed", label + ": status '" + status + "'");
        const std::string vis = t.value("visibility", "visible");
        require(vis == "visible" || vis == "hidden" || vis == "after_due_date" || vis == "after_published",
                label + ": visibility '" + vis + "'");
    }
    if (r.contains("leaderboard")) require(r["leaderboard"].is_array(), label + ": leaderboard is not an array");
}

// The solution of `exercise` with its blank markers removed: what a student who got it right hands in.
std::string solution(const Options& o, const std::string& exercise) {
    const std::string file = exercise + ".cu";
    return workbook::lesson::strip_markers(read_file(o.root / "solutions/04-rmsnorm" / file), file).text;
}

class Tree {
 public:
    Tree(const Options& o) : o_(o), dir_(o.work / "autograder") {}
    const fs::path& dir() const { return dir_; }

    void install() {
        fs::remove_all(o_.work);
        fs::create_directories(dir_ / "source");
        const fs::path zip = o_.work / "bundle.zip";
        Run b = sh("cd " + quote(o_.root.string()) + " && " + quote(o_.workbook.string()) + " gradescope 04 --out " +
                   quote(zip.string()));
        require(b.exit_code == 0, "workbook gradescope failed", b.output);
        Run x = sh("cd " + quote((dir_ / "source").string()) + " && cmake -E tar xf " + quote(zip.string()));
        require(x.exit_code == 0, "the bundle does not unpack", x.output);
        for (const char* s : {"setup.sh", "run_autograder"}) {
            const auto perms = fs::status(dir_ / "source" / s).permissions();
            require((perms & fs::perms::owner_exec) != fs::perms::none,
                    std::string(s) + " is not executable in the bundle");
        }
        require(!fs::exists(dir_ / "source/workbook/solutions"), "the bundle holds the solutions");
        require(!fs::exists(dir_ / "source/workbook/tests/grading"), "the bundle holds the known answers' tests");
        Run s = sh(env() + " " + quote((dir_ / "source/setup.sh").string()));
        require(s.exit_code == 0, "setup.sh failed", s.output);
        require(s.output.find("apt-get") == std::string::npos, "setup.sh tried to install packages that are installed",
                s.output);
        std::cout << "bundle unpacked, setup.sh succeeded\n";
    }

    // Uploads `files` (name -> content; content "->target" makes a link) and runs run_autograder; `planted` is put
    // in the results folder first, as a submission's code could where nothing confines it.
    json grade(const std::vector<std::pair<std::string, std::string>>& files, const std::string& extra_env, Run* run,
               const std::function<void(const fs::path&)>& planted = {}) {
        fs::remove_all(dir_ / "submission");
        fs::remove_all(dir_ / "results");
        fs::create_directories(dir_ / "submission");
        fs::create_directories(dir_ / "results");
        if (planted) planted(dir_ / "results");
        for (const auto& [name, content] : files) {
            if (content.rfind("->", 0) == 0) fs::create_symlink(content.substr(2), dir_ / "submission" / name);
            else write_file(dir_ / "submission" / name, content);
        }
        *run =
            sh(env() + " WORKBOOK_BACKEND=emu " + extra_env + " " + quote((dir_ / "source/run_autograder").string()));
        const fs::path results = dir_ / "results/results.json";
        require(fs::is_regular_file(fs::symlink_status(results)), "run_autograder left no results.json", run->output);
        json r;
        try {
            r = json::parse(read_file(results));
        } catch (const std::exception& e) {
            throw Failure(std::string("results.json is not JSON: ") + e.what() + "\n" + run->output);
        }
        return r;
    }

    std::string env() const {
        return "AUTOGRADER_ROOT=" + quote(dir_.string()) + " WORKBOOK_BUILD=" + quote(o_.build.string());
    }

 private:
    const Options& o_;
    fs::path dir_;
};

double code_points(const json& r, const std::string& exercise, double* max = nullptr) {
    double s = 0, m = 0;
    for (const auto& t : r["tests"])
        if (has_tag(t, exercise) && (has_tag(t, "normal") || has_tag(t, "edge"))) {
            s += t.value("score", 0.0);
            m += t.value("max_score", 0.0);
        }
    if (max) *max = m;
    return s;
}

void correct(const Options& o, Tree& tree) {
    Run run;
    json r = tree.grade(
        {{"rmsnorm.cu", solution(o, "rmsnorm")}, {"answers.md", read_file(o.root / "solutions/04-rmsnorm/answers.md")}},
        "WORKBOOK_EX=rmsnorm", &run);
    check_format(r, "correct");
    double max = 0;
    require(code_points(r, "rmsnorm", &max) == max && max > 0, "the solution did not earn every code point",
            run.output);
    require(r["extra_data"].value("passed", false), "the solution did not pass the lesson", run.output);
    require(r["extra_data"].value("submission", "") == "submission", "results.json names a private path");
    std::cout << "correct: " << r["score"] << " points, passed\n";
}

void wrong(const Options& o, Tree& tree) {
    Run run;
    json r = tree.grade({{"rmsnorm.cu", read_file(o.root / "solutions/04-rmsnorm/wrong/rmsnorm_host_reference.cu")},
                         {"answers.md", read_file(o.root / "solutions/04-rmsnorm/answers.md")}},
                        "WORKBOOK_EX=rmsnorm", &run);
    check_format(r, "wrong");
    double max = 0;
    require(code_points(r, "rmsnorm", &max) == 0 && max > 0, "a vetoed answer kept code points on Gradescope",
            run.output);
    require(!r["extra_data"]["vetoes"].empty() && !r["extra_data"].value("passed", true), "the veto is not recorded");
    require(r.value("output", "").find("vetoed") != std::string::npos, "the report does not say why points were lost");
    std::cout << "wrong: vetoed, " << r["score"] << " points (written answers only)\n";
}

void partial(const Options& o, Tree& tree) {
    Run run;
    // The core file alone, with a comment saved in Latin-1 (caf\xe9): a warning, not a refusal.
    json r = tree.grade({{"rmsnorm.cu", "// caf\xe9 au lait\n" + solution(o, "rmsnorm")},
                         {"answers.md", read_file(o.root / "solutions/04-rmsnorm/answers.md")}},
                        "", &run);
    check_format(r, "partial");
    double max = 0;
    require(code_points(r, "rmsnorm", &max) == max && max > 0, "the core file alone was not graded", run.output);
    require(r["extra_data"]["warnings"].size() == 1 && r["extra_data"]["warnings"][0].get<std::string>().find(
                                                           "rmsnorm.cu: line 1 holds bytes that are not UTF-8") == 0,
            "no warning for the byte that is not UTF-8: " + r["extra_data"]["warnings"].dump());
    const auto& ex = r["extra_data"]["exercises"];
    for (const auto& [name, e] : ex.items()) {
        if (name == "rmsnorm") continue;
        require(e.value("score", -1.0) == 0 && e["missing"].is_string(),
                "exercise " + name + " is not reported missing");
    }
    std::cout << "partial: " << r["score"] << " points for the core file alone; " << ex.size() - 1
              << " exercises missing\n";
}

void hostile(const Options& o, Tree& tree) {
    const fs::path results = tree.dir() / "results/results.json";
    // The launcher writes a perfect results.json where Gradescope reads it, then leaves a process in a session of
    // its own that keeps writing it for a minute.
    const std::string forge =
        "#include <cstdio>\n#include <unistd.h>\n"
        "static void forge() { FILE* f = std::fopen(\"" +
        results.string() +
        "\", \"w\");\n"
        "  if (f) { std::fputs(\"{\\\"score\\\": 1000, \\\"output\\\": \\\"FORGED\\\", \\\"tests\\\": []}\", f); "
        "std::fclose(f); } }\n"
        "static int forged = [] { forge(); if (fork() == 0) { setsid(); if (fork() == 0) {\n"
        "  for (int i = 0; i < 600; ++i) { forge(); usleep(100000); } } _exit(0); } return 0; }();\n";
    std::string text = solution(o, "rmsnorm");
    text = forge + text;
    Run run;
    json r = tree.grade({{"rmsnorm.cu", text},
                         {"answers.md", read_file(o.root / "solutions/04-rmsnorm/answers.md")},
                         {"rmsnorm_half.cu", "->/etc/passwd"},
                         {"rmsnorm_vec.cu", std::string("\x7f"
                                                        "ELF\0\0\0",
                                                        7)},
                         {"results.json", "{\"score\": 1000, \"output\": \"FORGED\", \"tests\": []}"},
                         {"Makefile", "grade-04:\n\techo FORGED\n"}},
                        "", &run);
    check_format(r, "hostile");
    // (The report quotes the forging lines in its veto diff, so "FORGED" may well appear inside the output.)
    require(r.value("output", "") != "FORGED" && r.contains("extra_data") && r["score"].get<double>() < 1000,
            "the submission's forged results.json was kept", run.output);
    require(code_points(r, "rmsnorm") == 0, "the forging launcher kept code points", run.output);
    const auto& ex = r["extra_data"]["exercises"];
    require(ex["rmsnorm_half"].value("missing", "").find("symbolic link") != std::string::npos,
            "the link was followed");
    require(ex["rmsnorm_vec"].value("missing", "").find("binary") != std::string::npos, "the binary file was graded");
    // Nothing the submission started is still writing (it would rewrite the file every 100 ms).
    const std::string final_text = read_file(results);
    for (int i = 0; i < 10; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        require(read_file(results) == final_text, "a process of the submission rewrote results.json after grading");
    }
    std::cout << "hostile: the grader's results stand (" << r["score"] << " points), the link and the binary refused\n";
}

void broken(const Options& o, Tree& tree) {
    Run run;
    const fs::path empty = o.work / "no-build";
    fs::create_directories(empty);
    // A folder in the place of results.json (with a forged file inside) must not take the final file into it.
    json r = tree.grade({{"rmsnorm.cu", solution(o, "rmsnorm")}}, "WORKBOOK_BUILD=" + quote(empty.string()), &run,
                        [](const fs::path& results) {
                            write_file(results / "results.json" / "forged.json", "{\"score\": 1000, \"tests\": []}");
                        });
    check_format(r, "broken");
    require(r["score"].get<double>() == 0, "a run without a grader scored points");
    std::cout << "broken: no grader, a valid results.json with score 0 (a folder in its place removed)\n";
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i], v = argv[i + 1];
        if (a == "--root") o.root = v;
        else if (a == "--workbook") o.workbook = v;
        else if (a == "--build") o.build = v;
        else if (a == "--work") o.work = v;
    }
    if (o.root.empty() || o.workbook.empty() || o.build.empty() || o.work.empty()) {
        std::cerr << "usage: gradescope_e2e --root DIR --workbook EXE --build DIR --work DIR\n";
        return 2;
    }
    // setup.sh would run apt-get for a missing package: not in a test. Say so and skip.
    Run list = sh(quote((o.root / "scripts/setup/packages.sh").string()) + " --list");
    std::istringstream packages(list.output);
    for (std::string p; std::getline(packages, p);) {
        Run q = sh("dpkg-query -W -f='${Status}' " + quote(p));
        if (q.output.find("install ok installed") == std::string::npos) {
            std::cout << "SKIPPED: package " << p << " is not installed, and setup.sh would install it\n";
            return 77;
        }
    }
    try {
        Tree tree(o);
        tree.install();
        correct(o, tree);
        wrong(o, tree);
        partial(o, tree);
        hostile(o, tree);
        broken(o, tree);
    } catch (const std::exception& e) {
        std::cerr << "FAILED: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
