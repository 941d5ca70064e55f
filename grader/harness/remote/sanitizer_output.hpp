// What compute-sanitizer printed while it ran a worker (SANITIZE=1 on a GPU): its findings, read from the worker's
// output. compute-sanitizer prefixes every line of its own with "========= "; a finding is one such line that starts a
// report ("Invalid __global__ write of size 4 bytes", "Error: Race reported between …", "Barrier error detected …",
// "Uninitialized __global__ memory read …", "Program hit cudaErrorX …") with its indented continuation lines, and the
// run ends with a summary line ("ERROR SUMMARY: 1 error", "RACECHECK SUMMARY: 1 hazard displayed (1 error, 0
// warnings)"). The findings are advice for the report: the points come from the run without the tool.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace wb::remote {

struct SanitizerReport {
    bool started = false;   // compute-sanitizer's banner was seen
    bool finished = false;  // its summary line was seen
    int errors = 0;         // from the summary line
    std::string summary;    // the summary line, without the prefix
    std::vector<std::string>
        findings;  // each: the report's lines joined by '\n', prefix removed, at most `max_findings`
    int findings_left_out = 0;
};

SanitizerReport parse_sanitizer_output(const std::string& output, std::size_t max_findings = 10);

nlohmann::json to_json(const std::string& tool, const SanitizerReport& report);

}  // namespace wb::remote
