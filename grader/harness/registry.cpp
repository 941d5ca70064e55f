#include <cstdio>
#include <cstdlib>

#include "protocol.hpp"
#include "state.hpp"
#include "wb_test.hpp"

namespace wb {

namespace {

std::vector<TestEntry>& mutable_registry() {
    static std::vector<TestEntry> tests;  // function-local: safe to use from other translation units' initialisers
    return tests;
}

std::uint64_t g_seed = 0;

std::string& current_name() {
    static std::string name;
    return name;
}

}  // namespace

Registrar::Registrar(const char* name, const char* tags) {
    const std::string problem = name_problem(name);
    std::vector<std::string> parsed = parse_tags(tags);
    if (!problem.empty() || parsed.empty()) {
        std::fprintf(stderr, "harness: cannot register test \"%s\" %s: %s\n", name, tags,
                     problem.empty() ? "malformed tags (want \"[exercise][group]\")" : problem.c_str());
        std::abort();
    }
    mutable_registry().push_back({name, std::move(parsed)});
}

const std::vector<TestEntry>& registered_tests() { return mutable_registry(); }

std::uint64_t run_seed() { return g_seed; }
const std::string& current_test_name() { return current_name(); }

namespace state {
void set_seed(std::uint64_t seed) { g_seed = seed; }
void set_current_test(const std::string& name) { current_name() = name; }
Observed& observed() {
    static Observed o;
    return o;
}
void record_measurement(nlohmann::json measurement) { observed().measurements.push_back(std::move(measurement)); }
}  // namespace state

}  // namespace wb
