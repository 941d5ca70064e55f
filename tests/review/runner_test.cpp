// The test runner's scheduling (grade/runner.cpp), against a stand-in judge: a shell script that speaks the judge's
// side of the protocol (nonce on stdin, result file) and logs when each test starts and ends.
#include "workbook_catch.hpp"

#include <fstream>
#include <map>
#include <sstream>

#include <unistd.h>

#include "fixture.hpp"
#include "grade/runner.hpp"

using namespace workbook;
using namespace workbook::grade;
namespace fs = std::filesystem;

namespace {

// Each test sleeps 0.3 s between its two log lines, so two tests in flight at once overlap in the log.
const char* kJudge = R"SH(#!/bin/sh
name=""; result=""
while [ $# -gt 0 ]; do
  case "$1" in --wb-run) name="$2"; shift ;; --wb-result) result="$2"; shift ;; esac
  shift
done
read nonce
echo "start $name $(date +%s.%N)" >> "$WB_LOG"
sleep 0.3
echo "end $name $(date +%s.%N)" >> "$WB_LOG"
printf '{"nonce":"%s","name":"%s","status":"passed"}' "$nonce" "$name" > "$result"
)SH";

struct Span {
    double start = 0, end = 0;
};

}  // namespace

TEST_CASE("a [timed] test runs after every other test, with nothing else in flight", "[runner]") {
    char tmpl[] = "/tmp/workbook-runner-test-XXXXXX";
    REQUIRE(::mkdtemp(tmpl));
    const fs::path dir = tmpl;
    fixture::write(dir / "judge.sh", kJudge);
    fs::permissions(dir / "judge.sh", fs::perms::owner_all);
    const fs::path log = dir / "log.txt";
    ::setenv("WB_LOG", log.c_str(), 1);  // the runner passes the judge its own environment

    std::vector<TestJob> jobs;
    for (const char* name : {"a", "timed", "b", "c", "d"}) {
        TestJob j;
        j.test.exercise = "demo";
        j.test.name = name;
        j.test.tags = {"demo", "normal"};
        if (std::string(name) == "timed") j.test.tags.push_back("timed");
        j.judge = dir / "judge.sh";
        j.worker = dir / "worker";
        jobs.push_back(j);
    }
    RunLimits limits;
    limits.parallel = 2;
    limits.sandbox = "none";
    const auto outcomes = run_tests(jobs, 1, limits);
    REQUIRE(outcomes.size() == jobs.size());
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        INFO(outcomes[i].test.name << ": " << outcomes[i].message);
        CHECK(outcomes[i].test.name == jobs[i].test.name);  // outcomes stay in the jobs' order
        CHECK(outcomes[i].passed);
    }

    std::map<std::string, Span> spans;
    std::istringstream in(fixture::read(log));
    std::string what, name;
    double t;
    while (in >> what >> name >> t) (what == "start" ? spans[name].start : spans[name].end) = t;
    REQUIRE(spans.size() == 5);
    const Span timed = spans["timed"];
    for (const auto& [n, s] : spans) {
        if (n == "timed") continue;
        INFO(n);
        CHECK(s.end <= timed.start);  // every other test had finished before the timed one began
    }
    // The untimed ones did run two at a time (so the check above is not met by a runner that runs one at a time).
    CHECK(spans["b"].start < spans["a"].end);

    // One untimed test and one timed, two slots free: the runner reaches the timed test in the same pass that starts
    // the untimed one, and must still wait for it.
    fs::remove(log);
    const std::vector<TestJob> pair = {jobs[0], jobs[1]};
    for (const auto& o : run_tests(pair, 1, limits)) CHECK(o.passed);
    std::map<std::string, Span> two;
    std::istringstream in2(fixture::read(log));
    while (in2 >> what >> name >> t) (what == "start" ? two[name].start : two[name].end) = t;
    REQUIRE(two.size() == 2);
    CHECK(two["a"].end <= two["timed"].start);
    ::unsetenv("WB_LOG");
    std::error_code ec;
    fs::remove_all(dir, ec);
}
