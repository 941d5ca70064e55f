// The judge's main: plain Catch2 when run by hand, and the runner protocol of docs/architecture.md (--wb-list,
// --wb-run NAME --wb-result FILE --wb-seed S --wb-worker PATH …, one nonce line on stdin) when run by
// `workbook grade`. The judge never runs student code itself: its tests call the entry points through
// remote/call.hpp, in a sandboxed worker process that has no way into this one.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#if defined(WORKBOOK_CATCH2_MAJOR) ? WORKBOOK_CATCH2_MAJOR == 2 : !__has_include(<catch2/catch_test_macros.hpp>)
// Catch2 2.x is header-only: its implementation is compiled here, without its main, and Session is declared only here.
// The emulator traps faults itself (guard pages of fiber stacks) and the runner reports a crashed process, so Catch2's
// own signal handlers, which would replace the emulator's during each test, are left out.
#define CATCH_CONFIG_NO_POSIX_SIGNALS
#define CATCH_CONFIG_RUNNER
#endif

#include <sys/prctl.h>

#include "protocol.hpp"
#include "remote/client.hpp"
#include "state.hpp"
#include "wb_test.hpp"

#if WB_CATCH2_MAJOR == 3
#include <catch2/catch_session.hpp>
#endif

namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

int list_tests() {
    nlohmann::json out = nlohmann::json::array();
    std::vector<std::string> seen;
    for (const auto& t : wb::registered_tests()) {
        // Catch2 selects names case-insensitively, so two names equal but for case could not be run one at a time.
        if (std::find(seen.begin(), seen.end(), lower(t.name)) != seen.end()) {
            std::fprintf(stderr, "harness: two tests are named \"%s\" (ignoring case)\n", t.name.c_str());
            return 2;
        }
        seen.push_back(lower(t.name));
        out.push_back({{"name", t.name}, {"tags", t.tags}});
    }
    std::cout << out.dump(2) << std::endl;
    return 0;
}

std::vector<const char*> c_args(const std::vector<std::string>& args) {
    std::vector<const char*> v;
    for (const auto& a : args) v.push_back(a.c_str());
    return v;
}

int run_catch(Catch::Session& session, const std::vector<std::string>& args) {
    auto argv = c_args(args);
    int rc = session.applyCommandLine(static_cast<int>(argv.size()), argv.data());
    if (rc != 0) return rc;
    return session.run();
}

// After the test: what the worker still reports (a pending CUDA error, emulator diagnostics no launch check
// collected). A CUDA error is sticky, so after a test that already failed it only repeats what the test reported.
std::vector<std::string> after_test(bool test_failed) {
    std::vector<std::string> problems;
    try {
        for (auto& p : wb::remote::finish())
            if (!test_failed || p.rfind("a CUDA error was still pending", 0) != 0) problems.push_back(std::move(p));
    } catch (const std::exception& e) {
        problems.push_back(std::string("ending the worker after the test failed: ") + e.what());
    }
    return problems;
}

void configure_remote(const wb::Options& o) {
    wb::remote::Config c;
    c.worker = o.worker;
    c.backend = o.backend;
    c.call_timeout_s = o.call_timeout_s;
    c.rss_limit_mb = o.worker_rss_mb;
    c.sandbox.backend = o.backend;
    c.sandbox.mode = o.sandbox;
    c.sandbox.why_none = o.sandbox_why;
    c.sandbox.as_limit_mb = o.worker_as_mb;
    c.sandbox.cpu_limit_s = 2 * o.call_timeout_s + 10;
    c.sandbox.env = o.worker_env;
    c.sandbox.hide = o.hide;
    if (!o.sanitize.empty()) {
        // compute-sanitizer slows kernels and the CUDA calls around them by one to two orders of magnitude.
        c.call_timeout_s *= 20;
        c.sandbox.cpu_limit_s = 2 * c.call_timeout_s + 60;
        c.sandbox.as_limit_mb = 0;
        c.sanitize_tool = o.sanitize;
        c.sandbox.wrapper = {o.sanitizer, "--tool", o.sanitize, "--print-limit", "20", "--show-backtrace", "no"};
    }
    wb::remote::configure(std::move(c));
}

int run_one(const wb::Options& o, const std::string& nonce, std::uint64_t seed) {
    wb::TestOutcome out;
    out.name = *o.run;
    const auto& tests = wb::registered_tests();
    bool known = std::any_of(tests.begin(), tests.end(), [&](const wb::TestEntry& t) { return t.name == out.name; });
    if (!known) {
        out.failures.push_back("no hidden test is named \"" + out.name + "\" in this harness");
    } else {
        Catch::Session session;
        std::vector<std::string> args = o.catch_args;
        // The listener is the result channel; Catch2's console report would only repeat its messages on stdout, where a
        // student's own prints belong. Unless the caller chose an output, the report goes nowhere.
        if (std::none_of(args.begin(), args.end(), [](const std::string& a) { return a == "-o" || a == "--out"; })) {
            args.push_back("--out");
            args.push_back("/dev/null");
        }
        args.push_back(out.name);  // registered names are valid test specs that match only themselves (name_problem)
        try {
            run_catch(session, args);
        } catch (const std::exception& e) {
            out.failures.push_back(std::string("the test run was aborted: ") + e.what());
        } catch (...) {
            out.failures.push_back("the test run was aborted by an unknown exception");
        }
        const auto& seen = wb::state::observed();
        out.ran =
            seen.started == std::vector<std::string>{out.name} && seen.ended == std::vector<std::string>{out.name};
        out.assertions = seen.assertions;
        out.measurements = seen.measurements;
        out.failures.insert(out.failures.end(), seen.failures.begin(), seen.failures.end());
        for (auto& f : after_test(!out.failures.empty())) out.failures.push_back(std::move(f));
        if (!out.ran)
            out.failures.push_back("the test \"" + out.name + "\" did not run to its end (" +
                                   std::to_string(seen.started.size()) + " test cases started, " +
                                   std::to_string(seen.ended.size()) + " ended)");
        else if (out.assertions == 0) out.failures.push_back("the test made no checks, so it cannot count as passed");
        out.passed = out.ran && seen.failed == 0 && out.assertions > 0 && out.failures.empty();
    }
    std::string error;
    if (!wb::write_result_file(*o.result, wb::result_json(nonce, seed, out, wb::remote::worker_report()), &error)) {
        std::fprintf(stderr, "harness: %s\n", error.c_str());
        return 2;
    }
    return out.passed ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    // No process of this user may read this one's memory or descriptors through /proc or ptrace (a worker outside a
    // PID namespace, say): the nonce, the expected values and the result file stay the judge's.
    ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    // The nonce comes first; stdin is then closed.
    std::string nonce;
    if (wb::wants_run(argc, argv)) {
        if (!std::getline(std::cin, nonce)) nonce.clear();
        if (!nonce.empty() && nonce.back() == '\r') nonce.pop_back();
        if (std::freopen("/dev/null", "r", stdin) == nullptr) std::fclose(stdin);
    }

    wb::Options o = wb::parse_options(argc, argv);
    if (!o.error.empty()) {
        std::fprintf(stderr, "harness: %s\n", o.error.c_str());
        return 2;
    }
    const std::uint64_t seed =
        o.seed ? *o.seed : (std::uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();
    wb::state::set_seed(seed);
    configure_remote(o);

    if (o.list) return list_tests();
    if (o.run) return run_one(o, nonce, seed);

    std::fprintf(stderr, "harness: seed %llu (replay with --wb-seed %llu)\n", static_cast<unsigned long long>(seed),
                 static_cast<unsigned long long>(seed));
    Catch::Session session;
    int rc = run_catch(session, o.catch_args);
    for (const auto& f : after_test(rc != 0)) {
        std::fprintf(stderr, "harness: %s\n", f.c_str());
        rc = rc == 0 ? 1 : rc;
    }
    return rc;
}
