// The harness side of the runner protocol (docs/architecture.md, "Hidden tests and the harness protocol"), kept free of
// Catch2 so it can be unit-tested on its own.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace wb {

struct Options {
    bool list = false;                  // --wb-list
    std::optional<std::string> run;     // --wb-run NAME
    std::optional<std::string> result;  // --wb-result FILE
    std::optional<std::uint64_t> seed;  // --wb-seed S
    // Where and how the submission runs (remote/client.hpp): its worker executable, the backend it drives, the
    // sandbox, the time per call and the worker's limits and environment.
    std::string worker;                   // --wb-worker PATH
    std::string backend = "emu";          // --wb-backend emu|gpu
    std::string sandbox = "auto";         // --wb-sandbox auto|bwrap|none
    std::string sandbox_why;              // --wb-sandbox-why TEXT: why "none" (for the report)
    double call_timeout_s = 20;           // --wb-call-timeout S
    std::uint64_t worker_as_mb = 0;       // --wb-worker-as-mb N
    std::uint64_t worker_rss_mb = 0;      // --wb-worker-rss-mb N
    std::vector<std::string> worker_env;  // --wb-worker-env KEY=VALUE (repeatable)
    std::vector<std::string> hide;        // --wb-hide DIR (repeatable): not visible to the worker
    // SANITIZE=1 on a GPU: the worker runs under compute-sanitizer with this tool (memcheck, racecheck, synccheck or
    // initcheck); its findings go into the result file as advice.
    std::string sanitize;                         // --wb-sanitize TOOL
    std::string sanitizer = "compute-sanitizer";  // --wb-sanitizer PATH
    std::vector<std::string> catch_args;          // everything else, argv[0] first, for Catch2
    std::string error;                            // non-empty when the command line is unusable
};

Options parse_options(int argc, char** argv);

// True when argv asks for --wb-run; main() reads the nonce before anything else in that case.
bool wants_run(int argc, char** argv);

// "[rmsnorm][edge]" -> {"rmsnorm", "edge"}; empty on a malformed tag string.
std::vector<std::string> parse_tags(const std::string& tags);

// Empty when a test name can be given to Catch2 verbatim as a test spec and matches only itself; otherwise why not.
// Catch2 treats , [ ] * ~ " \ as spec syntax, trims spaces and compares names case-insensitively.
std::string name_problem(const std::string& name);

struct TestOutcome {
    std::string name;
    bool ran = false;  // the requested test case started and ended
    bool passed = false;
    std::uint64_t assertions = 0;
    std::vector<std::string> failures;
    nlohmann::json measurements = nlohmann::json::array();  // state::record_measurement's (advice)
};

// `worker`: how the submission's process was confined and ended (remote::worker_report()).
nlohmann::json result_json(const std::string& nonce, std::uint64_t seed, const TestOutcome& outcome,
                           const nlohmann::json& worker = nlohmann::json::object());

// Writes via a temporary file and rename, so the runner never reads half a result.
bool write_result_file(const std::string& path, const nlohmann::json& result, std::string* error);

}  // namespace wb
