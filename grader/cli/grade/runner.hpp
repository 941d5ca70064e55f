// Running hidden tests: one judge process per test (trusted, built with the grader), at most two at a time (a test
// tagged [timed] last and alone, so that nothing shares the GPU while it is timed), each with a time limit, its own
// process group and a nonce on stdin. The judge starts the submission's worker in a sandbox and compares; results
// are read only from the judge's result file, never from any program's output.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backend.hpp"

namespace workbook::grade {

struct TestInfo {
    std::string exercise;
    std::string name;
    std::string group;  // "normal" | "edge" | other tag
    std::vector<std::string> tags;
};

struct TestOutcome {
    TestInfo test;
    bool passed = false;
    std::string message;  // why it failed: the listener's messages, or what happened to the process
    std::string output;   // trimmed stdout/stderr of the submission's worker, for failed tests
    double seconds = 0;
    bool timed_out = false;  // the test, or the worker's call, ran out of time
    nlohmann::json sandbox;  // the layers that confined the worker, as the judge reported them (empty: none ran)
    nlohmann::json
        sanitizer;  // under compute-sanitizer (RunLimits::sanitize_tool): its findings, as the judge read them
    // What the test measured beside its checks (a kernel's bandwidth on a GPU, testkit/bandwidth.hpp): advice.
    nlohmann::json measurements = nlohmann::json::array();
};

// `judge --wb-list`, keeping the tests tagged with `exercise`. nullopt + *error when the list cannot be read. The judge
// holds no student code, so the list is the build's, whatever the submission.
std::optional<std::vector<TestInfo>> list_tests(const std::filesystem::path& judge, const std::string& exercise,
                                                std::string* error);

struct RunLimits {
    double timeout_s = 30;              // one test, judge and worker together
    std::uint64_t rss_limit_mb = 4096;  // the worker's resident memory
    std::uint64_t as_limit_mb = 0;      // the worker's address space (RLIMIT_AS); 0: none
    int parallel = 2;
    Backend backend = Backend::emu;
    std::string sandbox = "auto";   // WORKBOOK_SANDBOX: auto, bwrap or none
    std::vector<std::string> hide;  // folders the worker must not see (grade-class: the other submissions)
    std::string sanitize_tool;      // non-empty (gpu): the worker runs under compute-sanitizer with this tool
};
RunLimits default_limits(Backend backend, bool sanitized);

struct TestJob {
    TestInfo test;
    std::filesystem::path judge;   // the exercise's judge (built with the grader)
    std::filesystem::path worker;  // the submission's worker (built by `workbook grade`)
};

std::vector<TestOutcome> run_tests(const std::vector<TestJob>& jobs, std::uint64_t seed, const RunLimits& limits);

}  // namespace workbook::grade
