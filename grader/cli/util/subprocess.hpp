// Runs a trusted tool (nvcc, git, cmake) with arguments, no shell, and collects what it printed: a thin layer over the
// one process runner (util/process.hpp), with its own process group and time limit, the output kept whole and raw
// (the caller parses it). Student code never runs through here: it runs in the judge's sandboxed worker.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "util/util.hpp"

namespace workbook::util {

struct RunResult {
    bool started = false;  // false: the program could not be run at all
    int exit_code = -1;    // -1 when it was killed or did not start
    bool timed_out = false;
    std::string output;  // stdout and stderr interleaved
};

// `argv[0]` is looked up on PATH when it has no '/'. `cwd` empty = current directory. timeout_s <= 0: no limit.
RunResult run_program(const std::vector<std::string>& argv, const std::filesystem::path& cwd = {}, int timeout_s = 0);

}  // namespace workbook::util
