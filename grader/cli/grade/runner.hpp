// Running hidden tests: one process per test, at most two at a time, each with a time and memory limit, its own
// process group and a nonce on stdin; results are read only from the result file, never from the program's output.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "backend.hpp"

namespace workbook {

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
    std::string output;   // trimmed stdout/stderr of the program, for failed tests
    double seconds = 0;
};

// `harness --wb-list`, keeping the tests tagged with `exercise`. nullopt + *error when the list cannot be read.
std::optional<std::vector<TestInfo>> list_tests(const std::filesystem::path& harness, const std::string& exercise,
                                                Backend backend, std::string* error);

struct RunLimits {
    double timeout_s = 30;
    std::uint64_t rss_limit_mb = 4096;
    std::uint64_t as_limit_mb = 0;
    int parallel = 2;
};
RunLimits default_limits(Backend backend, bool sanitized);

struct TestJob {
    TestInfo test;
    std::filesystem::path harness;
};

std::vector<TestOutcome> run_tests(const std::vector<TestJob>& jobs, std::uint64_t seed, const RunLimits& limits);

}  // namespace workbook
