// The judge's internal state shared by main, the listener and the registry.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace wb::state {

void set_seed(std::uint64_t seed);
void set_current_test(const std::string& name);

// What the listener saw during one Catch2 run.
struct Observed {
    std::vector<std::string> started;  // names of test cases that started
    std::vector<std::string> ended;    // names of test cases that ended
    std::uint64_t assertions = 0;      // assertions of the ended test cases (passed + failed)
    std::uint64_t failed = 0;
    std::vector<std::string> failures;                      // one message per failed assertion, in order
    nlohmann::json measurements = nlohmann::json::array();  // record_measurement's, in order
};
Observed& observed();

// A measurement the test made beside its checks (a kernel's bandwidth on a GPU): written to the result file, shown
// as advice, never a verdict.
void record_measurement(nlohmann::json measurement);

}  // namespace wb::state
