// SANITIZE=1 on a GPU: every hidden test of the graded exercises runs again once per compute-sanitizer tool
// (memcheck, racecheck, synccheck, initcheck), with the submission's worker under the tool, sandboxed as ever (the
// harness's remote/sandbox.hpp, "wrapper"). The findings are advice beside the emulator's: they never change a
// point, since the points come from the run without the tool and whatever a tool prints runs inside the student's
// sandbox.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "runner.hpp"

namespace workbook::grade {

extern const std::vector<std::string> kSanitizerTools;

// Per exercise and tool: {"tests": n, "tests_with_errors": k, "errors": e, "findings": [the distinct findings, at
// most five, each with the student's file:line], "not_run": [why a test ran without the tool, at most three]}.
// `strip` is removed from every finding (the submission folder, so that files read "rmsnorm.cu:41"). `tools`: the
// tools to run, in kSanitizerTools' order whatever the order asked; empty: all of them.
nlohmann::json run_compute_sanitizer(const std::vector<TestJob>& jobs, std::uint64_t seed, RunLimits limits,
                                     const std::string& strip, const std::vector<std::string>& tools = {});

// The report's section body for one run's findings, one line per exercise and tool and the findings indented below
// (empty json: empty text).
std::string sanitizer_report(const nlohmann::json& findings);

}  // namespace workbook::grade
