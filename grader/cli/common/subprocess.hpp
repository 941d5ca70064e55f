// Runs a tool (nvcc, git, make) with arguments, no shell, and collects what it printed. Small on purpose: the grading
// pipeline has its own sandboxed runner for student code; this is for trusted tools only.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace workbook::review {

struct RunResult {
    bool started = false;  // false: the program could not be run at all
    int exit_code = -1;    // -1 when it was killed or did not start
    bool timed_out = false;
    std::string output;  // stdout and stderr interleaved
};

// `argv[0]` is looked up on PATH when it has no '/'. `cwd` empty = current directory. timeout_s <= 0: no limit.
RunResult run_program(const std::vector<std::string>& argv, const std::filesystem::path& cwd = {}, int timeout_s = 0);

// The full path of `program` on PATH, or empty.
std::string which(const std::string& program);

}  // namespace workbook::review
