#include "runner.hpp"

#include <algorithm>
#include "code_lines.hpp"

#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>
#include <thread>

#include <nlohmann/json.hpp>

#include "util/process.hpp"
#include "sandbox.hpp"
#include "util/util.hpp"

namespace workbook::grade {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::uint64_t env_u64(const char* name, std::uint64_t fallback) {
    const char* v = std::getenv(name);
    if (!v || !*v) return fallback;
    char* end = nullptr;
    unsigned long long x = std::strtoull(v, &end, 10);
    return (end && *end == '\0' && x > 0) ? x : fallback;
}

std::string seconds_text(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, s == static_cast<long long>(s) ? "%.0f" : "%.1f", s);
    return buf;
}

}  // namespace

RunLimits default_limits(Backend backend, bool sanitized) {
    RunLimits l;
    l.timeout_s = static_cast<double>(env_u64("WORKBOOK_TEST_TIMEOUT", backend == Backend::gpu ? 10 : 30));
    l.rss_limit_mb = env_u64("WORKBOOK_TEST_MEMORY_MB", backend == Backend::gpu ? 16384 : 6144);
    // RLIMIT_AS only where the process does not reserve huge address ranges up front (sanitizer shadow memory, CUDA's
    // unified address space); the resident-memory watchdog covers the other cases.
    if (backend == Backend::emu && !sanitized) l.as_limit_mb = l.rss_limit_mb * 2;
    l.parallel = static_cast<int>(env_u64("WORKBOOK_TEST_JOBS", 2));
    l.backend = backend;
    // Only the layers a grade may use: "off" (no sandbox) is for the coverage measurement, never for a grade.
    if (const char* s = std::getenv("WORKBOOK_SANDBOX"); s && (std::string(s) == "bwrap" || std::string(s) == "none"))
        l.sandbox = s;
    return l;
}

std::optional<std::vector<TestInfo>> list_tests(const fs::path& judge, const std::string& exercise,
                                                std::string* error) {
    util::ProcessSpec spec;
    spec.argv = {judge.string(), "--wb-list"};
    spec.timeout_s = 60;
    spec.rss_limit_mb = 4096;
    auto r = util::run_process(spec);
    auto fail = [&](const std::string& why) -> std::optional<std::vector<TestInfo>> {
        if (error) {
            *error = why;
            std::string tail = util::trim_lines(r.err, 8, true);
            if (!tail.empty()) *error += "\n" + tail;
        }
        return std::nullopt;
    };
    if (!r.started) return fail("could not start the test program: " + r.start_error);
    if (r.timed_out) return fail("the test program hung while listing its tests");
    if (r.signal) return fail("the test program crashed (" + util::signal_name(r.signal) + ") before any test ran");
    if (r.exit_code != 0)
        return fail("the test program exited with status " + std::to_string(r.exit_code) + " while listing its tests");
    json list;
    try {
        list = json::parse(r.out);
    } catch (const std::exception&) {
        return fail("the test program did not print its list of tests");
    }
    if (!list.is_array()) return fail("the test program printed a malformed list of tests");
    std::vector<TestInfo> tests;
    for (const auto& t : list) {
        if (!t.is_object() || !t.contains("name") || !t["name"].is_string()) continue;
        TestInfo info;
        info.exercise = exercise;
        info.name = t["name"].get<std::string>();
        if (t.contains("tags") && t["tags"].is_array())
            for (const auto& tag : t["tags"])
                if (tag.is_string()) info.tags.push_back(tag.get<std::string>());
        bool mine = false;
        for (const auto& tag : info.tags) {
            if (tag == exercise) mine = true;
            if (tag == "normal" || tag == "edge") info.group = tag;
        }
        if (!mine) continue;
        if (info.group.empty()) info.group = "normal";
        tests.push_back(info);
    }
    return tests;
}

namespace {

bool is_timed(const TestInfo& t) { return std::find(t.tags.begin(), t.tags.end(), "timed") != t.tags.end(); }

struct Running {
    std::size_t index;
    std::unique_ptr<util::Child> child;
    fs::path dir;
    std::string nonce;
};

TestOutcome interpret(const TestJob& job, const Running& run, std::uint64_t seed, const RunLimits& limits) {
    const util::ProcessResult& pr = run.child->result();
    TestOutcome o;
    o.test = job.test;
    o.seconds = pr.wall_s;
    const std::string where = " in test '" + job.test.name + "'";

    // The result file is trusted only when it carries this run's nonce and this test's name.
    json result;
    bool valid = false;
    if (auto text = util::read_file(run.dir / "result.json")) {
        try {
            result = json::parse(*text);
            valid = result.is_object() && result.value("nonce", std::string()) == run.nonce &&
                    result.value("name", std::string()) == job.test.name &&
                    (result.value("status", std::string()) == "passed" ||
                     result.value("status", std::string()) == "failed");
        } catch (const std::exception&) {}
    }
    std::error_code ec;
    fs::remove_all(run.dir, ec);
    (void)seed;
    // The worker's side, as the judge saw it: the sandbox in force and the tail of what the submission printed.
    std::string worker_output;
    if (valid && result.contains("worker") && result["worker"].is_object()) {
        const json& w = result["worker"];
        if (w.contains("sandbox") && w["sandbox"].is_object()) o.sandbox = w["sandbox"];
        if (w.value("timed_out", false)) o.timed_out = true;
        if (w.contains("output") && w["output"].is_string())
            worker_output = util::sanitize_text(w["output"].get<std::string>());
        if (w.contains("sanitizer") && w["sanitizer"].is_object()) o.sanitizer = w["sanitizer"];
    }

    if (valid && result.contains("measurements") && result["measurements"].is_array())
        for (const auto& m : result["measurements"])
            if (m.is_object() && m.value("kind", std::string()) == "bandwidth") o.measurements.push_back(m);

    // The judge runs no student code, so a judge that fails to report is the grader's fault, said as such.
    if (!pr.started) {
        o.message = "could not start the judge: " + pr.start_error;
    } else if (pr.timed_out) {
        o.timed_out = true;
        o.message = "timed out after " + seconds_text(limits.timeout_s) + " s" + where +
                    " (an endless loop, a deadlock, or a barrier some threads never reach?)";
    } else if (pr.memory_exceeded) {
        o.message = "the judge used more than its memory limit" + where + " (a grader problem; please report it)";
    } else if (pr.signal) {
        o.message = "the judge crashed (" + util::signal_name(pr.signal) + ")" + where +
                    " (a grader problem; please report it)";
    } else if (!valid) {
        o.message = "the judge ended with exit status " + std::to_string(pr.exit_code) + " without a valid result" +
                    where + " (a grader problem; please report it)";
    } else if (result["status"] == "passed" && pr.exit_code == 0) {
        o.passed = true;
    } else if (result["status"] == "passed") {
        o.message = "reported success but then exited with status " + std::to_string(pr.exit_code) + where;
    } else {
        std::vector<std::string> msgs;
        if (result.contains("failures") && result["failures"].is_array())
            for (const auto& f : result["failures"]) {
                std::string m =
                    f.is_object() ? f.value("message", std::string()) : (f.is_string() ? f.get<std::string>() : "");
                if (!m.empty()) msgs.push_back(util::sanitize_text(m));
            }
        o.message = msgs.empty() ? "failed" + where : util::join(msgs, "\n");
        o.message = grade::name_code_lines(o.message, job.worker);
    }
    if (!o.passed) {
        if (!valid) {
            std::string tail = util::trim_lines(util::sanitize_text(pr.err), 20, true);
            if (!tail.empty()) o.message += "\nlast lines of the judge's stderr:\n" + tail;
        } else if (!util::trim(worker_output).empty() && o.message.find(worker_output) == std::string::npos) {
            o.output = "--- output of the submitted code (last lines) ---\n" + worker_output;
        }
    }
    return o;
}

}  // namespace

std::vector<TestOutcome> run_tests(const std::vector<TestJob>& jobs, std::uint64_t seed, const RunLimits& limits) {
    std::vector<TestOutcome> outcomes(jobs.size());
    // Whether bubblewrap works here is asked once per grade, not once per test.
    std::string sandbox = limits.sandbox, sandbox_why;
    if (sandbox == "auto" && !jobs.empty())
        sandbox = wb::sandbox::bwrap_usable("bwrap", &sandbox_why) ? "bwrap" : "none";
    std::vector<Running> running;
    std::size_t next = 0;
    const std::size_t parallel = static_cast<std::size_t>(std::max(1, limits.parallel));
    // A kernel that hangs usually hangs in every test: after two time-outs in one exercise its remaining tests are
    // failed without running, so a hang costs about two time limits, not one per test. Other exercises still run.
    constexpr int kTimeoutsBeforeSkipping = 2;
    std::map<std::string, int> timeouts;  // per harness (one per exercise)
    // A test tagged [timed] measures bandwidth on a GPU: it runs after every other test, with nothing else in flight,
    // so that no neighbouring test shares the GPU or the host's memory bandwidth while it is timed.
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < jobs.size(); ++i)
        if (!is_timed(jobs[i].test)) order.push_back(i);
    const std::size_t untimed = order.size();
    for (std::size_t i = 0; i < jobs.size(); ++i)
        if (is_timed(jobs[i].test)) order.push_back(i);
    // Asked before each start, since one pass of the loop below may start the last untimed test and reach the timed
    // ones: a timed test starts only when nothing runs.
    auto may_start = [&] {
        // After an interrupt the running tests are killed as they are polled; none is started.
        if (next >= order.size() || util::interrupted()) return false;
        return next >= untimed ? running.empty() : running.size() < parallel;
    };
    while ((next < order.size() && !util::interrupted()) || !running.empty()) {
        while (may_start()) {
            const std::size_t index = order[next];
            const TestJob& job = jobs[index];
            if (timeouts[job.worker.string()] >= kTimeoutsBeforeSkipping) {
                ++next;
                TestOutcome& skipped = outcomes[index];
                skipped.test = job.test;
                skipped.passed = false;
                skipped.message =
                    "not run: two earlier tests of this exercise timed out, so its remaining tests were "
                    "skipped to finish the grade. Fix the hang (see the first time-out), then grade again.";
                continue;
            }
            Running r;
            r.index = index;
            ++next;
            char tmpl[] = "/tmp/workbook-test-XXXXXX";
            if (::mkdtemp(tmpl)) r.dir = tmpl;
            r.nonce = util::random_hex(16);
            util::ProcessSpec spec;
            // The judge's time for the worker's calls ends before the test's own limit, so that a hung kernel is
            // reported by the judge (with the emulator's account of where each thread is), not just killed.
            const double call_timeout = std::max(2.0, limits.timeout_s - 3);
            spec.argv = {job.judge.string(),
                         "--wb-run",
                         job.test.name,
                         "--wb-result",
                         (r.dir / "result.json").string(),
                         "--wb-seed",
                         std::to_string(seed),
                         "--wb-worker",
                         job.worker.string(),
                         "--wb-backend",
                         backend_name(limits.backend),
                         "--wb-sandbox",
                         sandbox,
                         "--wb-call-timeout",
                         seconds_text(call_timeout),
                         "--wb-worker-rss-mb",
                         std::to_string(limits.rss_limit_mb)};
            if (!sandbox_why.empty()) spec.argv.insert(spec.argv.end(), {"--wb-sandbox-why", sandbox_why});
            if (limits.as_limit_mb)
                spec.argv.insert(spec.argv.end(), {"--wb-worker-as-mb", std::to_string(limits.as_limit_mb)});
            for (const auto& h : limits.hide) spec.argv.insert(spec.argv.end(), {"--wb-hide", h});
            if (!limits.sanitize_tool.empty())
                spec.argv.insert(spec.argv.end(), {"--wb-sanitize", limits.sanitize_tool});
            // The worker's whole environment: nothing of the grader's (tokens, paths) reaches the submission.
            // The emulator's watchdog, on a block and on the whole launch: a test's launch that runs a third of the
            // call's time is reported with where each thread is, whether one block is stuck or every block does far
            // too much (the emulator alone times only blocks, so that a program's long grid is not a hang).
            const char* watchdog = std::getenv("EMU_WATCHDOG_SECONDS");
            const char* launch_watchdog = std::getenv("EMU_WATCHDOG_LAUNCH_SECONDS");
            const std::string wd =
                watchdog && *watchdog ? watchdog : std::to_string(std::max(2, static_cast<int>(call_timeout / 3)));
            const std::string launch_wd = launch_watchdog && *launch_watchdog ? launch_watchdog : wd;
            for (const std::string& kv :
                 std::vector<std::string>{"PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8", "HOME=/tmp",
                                          "EMU_WATCHDOG_SECONDS=" + wd, "EMU_WATCHDOG_LAUNCH_SECONDS=" + launch_wd})
                spec.argv.insert(spec.argv.end(), {"--wb-worker-env", kv});
            // What the program needs to load and to find its device; no more.
            for (const char* pass : {"CUDA_VISIBLE_DEVICES", "LD_LIBRARY_PATH"})
                if (const char* v = std::getenv(pass); v && *v)
                    spec.argv.insert(spec.argv.end(), {"--wb-worker-env", std::string(pass) + "=" + v});
            // The emulator runs a block's threads one after the other between barriers, and a launch's blocks one
            // after the other. In the default orders (thread 0 first, block 0 first) a kernel whose result depends on
            // the order has the right values, and its race goes unreported where the checker cannot judge it: atomics
            // on both sides, a launch that calls __threadfence(). Random orders from the run's seed (the block order
            // never the index order) turn such a dependence into wrong values, and SEED=n replays them
            // (emulator/runtime/block_order.cpp, scheduler.cpp). EMU_SCHEDULE and EMU_BLOCK_ORDER in the grader's
            // environment override them.
            for (const char* order : {"EMU_SCHEDULE", "EMU_BLOCK_ORDER"}) {
                const char* v = std::getenv(order);
                spec.argv.insert(spec.argv.end(), {"--wb-worker-env",
                                                   std::string(order) + "=" +
                                                       (v && *v ? std::string(v) : "random:" + std::to_string(seed))});
            }
            std::error_code ec;
            fs::create_directories(r.dir / "cwd", ec);
            spec.cwd = r.dir / "cwd";
            spec.stdin_data = r.nonce + "\n";
            spec.timeout_s = limits.timeout_s;
            // The judge is trusted, and its shared-memory arena (a memfd: its size counts as written bytes) holds a
            // test's buffers, 1 GiB for the roofline shape on a GPU. The worker keeps a limit of its own (sandbox).
            spec.fsize_limit_mb = 8192;
            r.child = std::make_unique<util::Child>(spec);
            r.child->start();
            running.push_back(std::move(r));
        }
        bool progressed = false;
        for (auto it = running.begin(); it != running.end();) {
            if (it->child->poll()) {
                outcomes[it->index] = interpret(jobs[it->index], *it, seed, limits);
                if (outcomes[it->index].timed_out ||
                    outcomes[it->index].message.find(" still running after ") != std::string::npos)
                    ++timeouts[jobs[it->index].worker.string()];
                it = running.erase(it);
                progressed = true;
            } else {
                ++it;
            }
        }
        if (!progressed) std::this_thread::sleep_for(std::chrono::milliseconds(1));  // a test often takes 10 ms
    }
    return outcomes;
}

}  // namespace workbook::grade
