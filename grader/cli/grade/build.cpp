#include "build.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <initializer_list>
#include <mutex>
#include <thread>

#include <unistd.h>

#include "landlock.hpp"
#include "review/lookalike.hpp"
#include "util/process.hpp"
#include "util/util.hpp"

namespace workbook::grade {

namespace fs = std::filesystem;

namespace {

// The gpu worker's compile. -lineinfo: compute-sanitizer (SANITIZE=1) and a device-side assert name the student's
// file and line. Part of the cache key, so a change here rebuilds every cached worker.
const char* const kGpuCompileFlags[] = {"-std=c++17", "-O2", "-lineinfo", "-arch=native"};

// Size and mtime of every file a build depends on but the student does not control: emulator headers, the runtime,
// the rewriter and the test objects. A rebuilt grader therefore invalidates the cache.
std::string stamp(const fs::path& p) {
    std::error_code ec;
    std::string s = p.string() + ":";
    if (fs::is_directory(p, ec)) {
        std::vector<std::string> parts;
        for (auto it = fs::recursive_directory_iterator(p, ec); !ec && it != fs::recursive_directory_iterator();
             it.increment(ec))
            if (it->is_regular_file(ec)) parts.push_back(stamp(it->path()));
        std::sort(parts.begin(), parts.end());
        return s + util::join(parts, ";");
    }
    auto size = fs::file_size(p, ec);
    if (ec) return s + "missing";
    auto t = fs::last_write_time(p, ec).time_since_epoch().count();
    return s + std::to_string(size) + ":" + std::to_string(t);
}

// The limits of each process of a submission's compile (Confinement::apply): the largest honest compile measured
// was nvcc's cicc on rmsnorm_bf16_fast, 0.63 GB resident and seconds of CPU.
constexpr std::uint64_t kCompilerMemoryMb = 4096;
constexpr std::uint64_t kCompilerCpuSeconds = 120;
const char* const kCompilerLimitsNote =
    "\n(the compiler stopped at one of its limits: 4 GiB of memory and 120 s of CPU time for each of its processes; "
    "an #include of a device such as /dev/zero, or a template or constexpr computation that never ends, reaches "
    "them)";

// What a compiler prints when it runs out of memory or CPU time under the limits above.
bool hit_compiler_limit(const std::string& out) {
    for (const char* sign : {"out of memory", "virtual memory exhausted", "Killed signal", "CPU time limit",
                             "memory allocation failure", "std::bad_alloc"})
        if (out.find(sign) != std::string::npos) return true;
    return false;
}

// The input of `inputs` that a linker's output says it cannot open, or "" (the linker read them all).
std::string unopened_input(const std::string& out, std::initializer_list<const std::vector<std::string>*> inputs) {
    bool cannot_open = false;
    for (const char* sign : {"cannot open", "Cannot open", "could not open", "Could not open", "No such file"})
        if (out.find(sign) != std::string::npos) cannot_open = true;
    if (!cannot_open) return {};
    for (const auto* list : inputs)
        for (const auto& input : *list)
            if (!input.empty() && out.find(input) != std::string::npos) return input;
    return {};
}

struct Toolchain {
    std::string error;  // non-empty: cannot build on this backend
    std::string cxx, nvcc, emu_nvcc;
    std::vector<std::string> cxxflags, ldflags, link_libs, harness_objs;
    std::vector<fs::path> deps;
    std::vector<std::string> shown;  // what the confined compiler reads from folders hidden from the submission
    std::vector<std::string> hide;   // the folders the submission's worker does not see (grade.cpp)
};

Toolchain toolchain(const util::Context& ctx, Backend backend, const std::vector<std::string>& hide) {
    Toolchain t;
    t.hide = hide;
    const std::string b = backend_name(backend);
    t.cxx = util::config_string(ctx, "/cxx");
    if (t.cxx.empty()) t.cxx = util::which("c++");
    t.harness_objs = util::config_list(ctx, "/harness/" + b);
    t.link_libs = util::config_list(ctx, "/link_libs/" + b);
    // The build's linker (gold where binutils has it) links emu workers too (nvcc links gpu ones); in the cache key.
    const auto link_flags = util::config_list(ctx, "/link_flags");
    if (backend == Backend::emu) {
        t.emu_nvcc = util::config_string(ctx, "/emu/nvcc");
        t.cxxflags = util::config_list(ctx, "/emu/cxxflags");
        t.ldflags = util::config_list(ctx, "/emu/ldflags");
        t.ldflags.insert(t.ldflags.end(), link_flags.begin(), link_flags.end());
        const std::string inc = util::config_string(ctx, "/emu/include_dir");
        const std::string rt = util::config_string(ctx, "/emu/runtime_lib");
        if (t.emu_nvcc.empty() || inc.empty() || rt.empty())
            t.error = "the CPU emulator is not part of this build (workbook-config.json has no emu section)";
        t.cxxflags.insert(t.cxxflags.begin(), "-I" + inc);
        t.link_libs.insert(t.link_libs.begin(), rt);
        // emu-nvcc.conf beside the driver holds its flags: a reconfigured build is a different toolchain.
        t.deps = {t.emu_nvcc, fs::path(t.emu_nvcc).parent_path() / "emu-nvcc.conf", inc, rt};
    } else {
        t.nvcc = find_nvcc(ctx);
        if (t.nvcc.empty()) t.error = "nvcc was not found";
        t.deps = {t.nvcc};
    }
    if (t.harness_objs.empty() && t.error.empty())
        t.error = "the worker for the " + b + " backend is not part of this build";
    for (const auto& o : t.harness_objs) t.deps.push_back(o);
    for (const auto& o : t.link_libs)
        if (!o.empty() && o[0] == '/') t.deps.push_back(o);
    for (const auto& d : t.deps) t.shown.push_back(d.string());
    // The compiler's own folder: emu-nvcc reads emu-nvcc.conf beside itself (a stand-in, in a test, its real one).
    if (!t.emu_nvcc.empty()) t.shown.push_back(fs::path(t.emu_nvcc).parent_path().string());
    for (const char* key : {"/cuda/include_dir", "/cuda/lib_dir"})
        if (auto dir = util::config_string(ctx, key); !dir.empty()) t.shown.push_back(dir);
    return t;
}

std::string cmdline(const std::vector<std::string>& argv) { return util::join(argv, " "); }

// Keeps the cache from growing without bound: the newest few builds per exercise and backend survive, and so does
// anything used in the last ten minutes (another grade running in parallel, e.g. class grading, may be about to run
// it).
void prune(const fs::path& dir, std::size_t keep) {
    std::error_code ec;
    std::vector<std::pair<fs::file_time_type, fs::path>> entries;
    for (const auto& d : fs::directory_iterator(dir, ec))
        if (d.is_directory(ec)) entries.emplace_back(fs::last_write_time(d.path(), ec), d.path());
    if (entries.size() <= keep) return;
    std::sort(entries.begin(), entries.end(), [](auto& a, auto& b) { return a.first > b.first; });
    const auto recent = fs::file_time_type::clock::now() - std::chrono::minutes(10);
    for (std::size_t i = keep; i < entries.size(); ++i)
        if (entries[i].first < recent) fs::remove_all(entries[i].second, ec);
}

BuildResult build_one(const util::Context& ctx, const lesson::Lesson& lesson, const BuildJob& job, Backend backend,
                      const Toolchain& tc) {
    BuildResult r;
    r.exercise = job.exercise;
    auto t0 = std::chrono::steady_clock::now();
    auto done = [&]() -> BuildResult& {
        r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return r;
    };
    if (!tc.error.empty()) {
        r.setup_error = true;
        r.message = "Cannot build on the " + backend_name(backend) + " backend: " + tc.error + ".";
        return done();
    }
    const std::string b = backend_name(backend);
    const auto hidden = util::config_list(ctx, "/hidden_tests/" + lesson.id + "/" + job.exercise + "/" + b);
    if (hidden.empty()) {
        r.setup_error = true;
        r.message = "The hidden tests of '" + job.exercise + "' are not built for the " + b +
                    " backend (missing from workbook-config.json).";
        return done();
    }
    const std::string* source = &job.text;

    std::string deps;
    for (const auto& d : tc.deps) deps += stamp(d) + "\n";
    for (const auto& h : hidden) deps += stamp(h) + "\n";
    // The grader itself: how it confines and links a compile is its code, so a cached result (a failure above all:
    // a link the confinement broke reads as the student's "did not compile") is not served to a rebuilt grader.
    std::error_code self_ec;
    deps += stamp(fs::read_symlink("/proc/self/exe", self_ec)) + "\n";
    const std::string flags = cmdline(tc.cxxflags) + "|" + cmdline(tc.ldflags) + "|" + cmdline(tc.link_libs) + "|" +
                              tc.cxx + "|" + tc.nvcc + "|" +
                              cmdline({std::begin(kGpuCompileFlags), std::end(kGpuCompileFlags)});
    const std::string key =
        util::sha256_hex(*source + '\0' + job.source.filename().string() + '\0' + b + '\0' + flags + '\0' + deps)
            .substr(0, 20);
    const fs::path base = ctx.build_dir / "grade" / lesson.number / job.exercise / b;
    const fs::path dir = base / key;
    const fs::path exe = dir / "worker";
    const fs::path exe_hash = dir / "worker.sha256";
    const fs::path failed = dir / "compile-errors.txt";
    std::error_code ec;
    if (fs::is_regular_file(exe, ec)) {
        // A cached worker is trusted only as the bytes that were built: anything that changed it since (another
        // process of this user, a half-finished copy) makes it a stranger, rebuilt from the source.
        const auto bytes = util::read_file(exe);
        const auto recorded = util::read_file(exe_hash);
        if (bytes && recorded && util::sha256_hex(*bytes) == util::trim(*recorded)) {
            r.ok = true;
            r.cached = true;
            r.worker = exe;
            fs::last_write_time(dir, fs::file_time_type::clock::now(), ec);
            return done();
        }
        fs::remove_all(dir, ec);
    }
    if (fs::is_regular_file(failed, ec)) {
        r.cached = true;
        r.message = util::read_file(failed).value_or("");
        return done();
    }
    // Build in a private folder and move it into place, so parallel grade runs never see a half-built harness.
    const fs::path tmp = base / (key + ".tmp" + util::random_hex(4));
    fs::create_directories(tmp, ec);
    if (ec) {
        r.setup_error = true;
        r.message = "Cannot create " + tmp.string() + ": " + ec.message() + ".";
        return done();
    }
    const std::string stem = job.source.stem().string();
    const std::string obj = (tmp / (stem + ".o")).string();
    // The compiler reads a private copy of the hashed text, by its bare name, from a folder that holds nothing else:
    // `#include "../x"` finds no classmate beside it, and diagnostics and __FILE__ read "rmsnorm.cu", not a path.
    const fs::path src = tmp / "src";
    const std::string file = job.source.filename().string();
    fs::create_directories(src, ec);
    util::write_file_atomic(src / file, *source);
    const fs::path show_base = src;
    std::vector<std::string> shown = tc.shown;
    shown.insert(shown.end(), hidden.begin(), hidden.end());  // the exercise's hidden-test objects, linked in
    const Confinement confined(tc.hide, shown, tmp, backend == Backend::gpu);

    // A compiler that did not run to its own verdict (not started, timed out, killed by a signal such as Ctrl-C or
    // the out-of-memory killer) says nothing about the student's code: such a failure is reported, never cached.
    bool interrupted_step = false;
    bool limit_hit = false;  // the compiler ran out of the memory or CPU time Confinement gives it
    auto step = [&](std::vector<std::string> argv, std::string* out) {
        util::ProcessSpec spec;
        spec.argv = std::move(argv);
        spec.cwd = src;
        confined.apply(spec);
        spec.timeout_s = 300;
        spec.fsize_limit_mb = 0;
        spec.capture_limit = 128 * 1024;
        auto pr = util::run_process(spec);
        // bubblewrap exits with 128 + the signal that ended the compiler: a compiler killed in the namespaces (by
        // the out-of-memory killer, say) is still a compile that did not finish, never the student's verdict.
        if (pr.signal == 0 && confined.in_namespaces() && pr.exit_code > 128 && pr.exit_code <= 128 + 64)
            pr.signal = pr.exit_code - 128;
        *out = pr.out + pr.err;
        if (!pr.started) *out = pr.start_error;
        if (pr.timed_out) *out = "the compiler ran for more than 300 s and was stopped";
        if (pr.started && !pr.timed_out && pr.exit_code != 0 && hit_compiler_limit(*out)) limit_hit = true;
        if (pr.signal) *out = "the compiler was stopped by " + util::signal_name(pr.signal) + "\n" + *out;
        if (!pr.started || pr.timed_out || pr.signal || util::interrupted()) interrupted_step = true;
        return pr.started && !pr.timed_out && pr.signal == 0 && pr.exit_code == 0;
    };

    std::string out;
    std::vector<std::string> link;
    bool ok;
    // The compiler's own temporary files (an assembler's message names its .s file) are named without the folder.
    auto shown_output = [&]() {
        util::erase_all(out, tmp.string() + "/");
        return out;
    };
    if (backend == Backend::emu) {
        // emu-nvcc (the driver emu_add_executable uses too) preprocesses, rewrites and compiles with the emulator's
        // checks; its line markers carry the path it is given: give it the path the student knows, so diagnostics
        // read "rmsnorm.cu:42".
        ok = step({tc.emu_nvcc, "-c", file, "-o", obj}, &out);
        link = {tc.cxx, obj};
    } else {
        std::vector<std::string> cc = {tc.nvcc};
        cc.insert(cc.end(), std::begin(kGpuCompileFlags), std::end(kGpuCompileFlags));
        cc.insert(cc.end(), {"-c", file, "-o", obj});
        ok = step(cc, &out);
        // -arch=native needs a visible device at compile time; sm_90 is the H200 this workbook targets.
        if (!ok && (out.find("native") != std::string::npos || out.find("arch") != std::string::npos)) {
            std::replace(cc.begin(), cc.end(), std::string("-arch=native"), std::string("-arch=sm_90"));
            ok = step(cc, &out);
        }
        link = {tc.nvcc, "-arch=sm_90", obj};
    }
    if (!ok && interrupted_step) {
        r.message =
            trim_compiler_output(shown_output(), show_base) + "\n(the compiler did not finish, so nothing was cached)";
        fs::remove_all(tmp, ec);
        return done();
    }
    if (!ok) {
        r.message = trim_compiler_output(shown_output(), show_base) + (limit_hit ? kCompilerLimitsNote : "");
        // The compiler quotes a pasted no-break space or minus sign as it is: invisible, or like its ASCII twin.
        if (const std::string note = review::lookalike_note(*source, job.source.filename().string()); !note.empty())
            r.message += "\n" + note;
        fs::remove_all(src, ec);
        util::write_file_atomic(tmp / "compile-errors.txt", r.message);
        fs::create_directories(base, ec);
        fs::rename(tmp, dir, ec);
        if (ec) fs::remove_all(tmp, ec);
        return done();
    }
    link.insert(link.end(), hidden.begin(), hidden.end());
    link.insert(link.end(), tc.harness_objs.begin(), tc.harness_objs.end());
    link.insert(link.end(), tc.link_libs.begin(), tc.link_libs.end());
    link.insert(link.end(), tc.ldflags.begin(), tc.ldflags.end());
    link.insert(link.end(), {"-o", (tmp / "worker").string()});
    if (!step(link, &out)) {
        // A link that cannot open one of the grader's own inputs (its tests, its worker, a library of its build)
        // failed whatever the submission holds: the grader's problem, never the student's "did not compile". Seen
        // on the H200 when the confined compile did not show a library reached through a symbolic link.
        if (const std::string input = unopened_input(out, {&hidden, &tc.harness_objs, &tc.link_libs}); !input.empty()) {
            r.setup_error = true;
            r.message = "The grader could not link the tests: the linker cannot open the grader's own " + input +
                        " (a problem of this grader's build or of this machine, not of the submitted code).";
            fs::remove_all(tmp, ec);
            return done();
        }
        // A link error is the student's when it names a missing entry point (e.g. launch_rmsnorm renamed); either
        // way, it is shown and nothing is cached, so a fixed grader build is picked up.
        r.message = "Linking the tests failed:\n" + trim_compiler_output(shown_output(), show_base, 4);
        fs::remove_all(tmp, ec);
        return done();
    }
    fs::remove(obj, ec);  // the executable is what the cache needs
    fs::remove_all(src, ec);
    if (auto bytes = util::read_file(tmp / "worker"))
        util::write_file_atomic(tmp / "worker.sha256", util::sha256_hex(*bytes) + "\n");
    fs::rename(tmp, dir, ec);
    if (ec) {
        // Another grade run finished the same key first: use its result.
        fs::remove_all(tmp, ec);
    }
    prune(base, 6);
    r.ok = fs::is_regular_file(exe, ec);
    r.worker = exe;
    if (!r.ok) r.message = "the built worker disappeared from " + dir.string();
    return done();
}

}  // namespace

Confinement::Confinement(const std::vector<std::string>& hide, const std::vector<std::string>& shown,
                         const std::filesystem::path& build_dir, bool gpu)
    : gpu_(gpu) {
    using Kind = wb::sandbox::ViewPath::Kind;
    const char* mode = std::getenv("WORKBOOK_SANDBOX");
    bwrap_ = !(mode && std::string(mode) == "none") && wb::sandbox::bwrap_usable("bwrap", nullptr);
    for (const auto& h : hide) view_.push_back({Kind::hidden, h});
    for (const auto& p : shown) view_.push_back({Kind::read_only, p});
    view_.push_back({Kind::writable, build_dir.string()});
    const char* path = std::getenv("PATH");
    env_ = {std::string("PATH=") + (path && *path ? path : "/usr/local/bin:/usr/bin:/bin"), "LANG=C.UTF-8",
            "HOME=" + build_dir.string(), "TMPDIR=" + build_dir.string()};
    for (const char* pass : {"CUDA_VISIBLE_DEVICES", "LD_LIBRARY_PATH"})
        if (const char* v = std::getenv(pass); v && *v) env_.push_back(std::string(pass) + "=" + v);
    // The build's compiler cache (emu-nvcc's launcher) keeps serving the compiles where the grader was given one:
    // the compiler writes there what it makes of the source, nothing the source chooses.
    const char* cache = std::getenv("CCACHE_DIR");
    if (cache && *cache && ::access(cache, W_OK) == 0) {
        view_.push_back({Kind::writable, cache});
        for (const char* pass : {"CCACHE_DIR", "CCACHE_BASEDIR", "CCACHE_NOHASHDIR", "CCACHE_MAXSIZE"})
            if (const char* v = std::getenv(pass); v && *v) env_.push_back(std::string(pass) + "=" + v);
    } else {
        env_.push_back("CCACHE_DISABLE=1");
    }
    if (!bwrap_) {
        std::string why;  // no Landlock: the report's Sandbox line already says what confines the worker
        landlock_fd_ = wb::sandbox::landlock_ruleset(&why, view_);
    }
}

Confinement::~Confinement() {
    if (landlock_fd_ >= 0) ::close(landlock_fd_);
}

void Confinement::apply(util::ProcessSpec& spec) const {
    // A source that includes /dev/zero grows the compiler's heap by hundreds of MB a second, and a template or
    // constexpr bomb computes for minutes: each process of the compile gets kCompilerMemoryMb of heap and
    // kCompilerCpuSeconds of CPU (on CPU time, so that a loaded machine does not stop an honest compile). RLIMIT_DATA,
    // not RLIMIT_AS: nvcc -arch=native starts the CUDA driver, which reserves far more address space than it uses.
    spec.data_limit_mb = kCompilerMemoryMb;
    spec.cpu_limit_s = kCompilerCpuSeconds;
    if (bwrap_) {
        // bubblewrap sets the compiler's environment itself (--clearenv, --setenv).
        spec.argv = wb::sandbox::confined_command("bwrap", view_, env_, gpu_, spec.cwd.string(), spec.argv);
        return;
    }
    spec.clear_env = true;
    for (const auto& kv : env_) spec.env.emplace_back(kv.substr(0, kv.find('=')), kv.substr(kv.find('=') + 1));
    spec.landlock_fd = landlock_fd_;
}

std::string trim_compiler_output(const std::string& out, const fs::path& base, std::size_t max_errors) {
    std::string text = out;
    // Absolute paths of the submission are noise; the student knows the file by its name.
    const std::string prefix = base.string() + "/";
    for (std::size_t pos; !base.empty() && (pos = text.find(prefix)) != std::string::npos;)
        text.erase(pos, prefix.size());
    auto lines = util::split_lines(text);
    std::vector<std::string> kept;
    std::size_t errors = 0;
    bool in_error = false;
    for (const auto& l : lines) {
        const bool is_error = l.find(": error") != std::string::npos || l.find("error:") != std::string::npos ||
                              l.find(": fatal error") != std::string::npos ||
                              l.find("undefined reference") != std::string::npos ||
                              l.find("multiple definition") != std::string::npos;
        const bool is_note = l.find(": note:") != std::string::npos || l.find(": warning:") != std::string::npos ||
                             l.find("In function") != std::string::npos ||
                             l.find("In file included") != std::string::npos;
        if (is_error) {
            if (errors == max_errors) break;
            ++errors;
            in_error = true;
            kept.push_back(l);
        } else if (is_note) {
            in_error = false;
        } else if (in_error && kept.size() < 40) {
            kept.push_back(l);  // the source line and caret under an error
        }
    }
    if (kept.empty()) return util::trim_lines(util::sanitize_text(text), 25);
    std::size_t total_errors = 0;
    for (const auto& l : lines)
        if (l.find("error:") != std::string::npos || l.find("undefined reference") != std::string::npos) ++total_errors;
    std::string res = util::trim_lines(util::sanitize_text(util::join(kept, "\n")), 30);
    if (total_errors > errors) res += "\n… and " + std::to_string(total_errors - errors) + " more errors";
    return res;
}

std::vector<BuildResult> build_workers(const util::Context& ctx, const lesson::Lesson& lesson,
                                       const std::vector<BuildJob>& jobs, Backend backend, int parallel,
                                       const std::vector<std::string>& hide) {
    const Toolchain tc = toolchain(ctx, backend, hide);
    std::vector<BuildResult> results(jobs.size());
    std::atomic<std::size_t> next{0};
    auto worker = [&] {
        for (std::size_t i; (i = next++) < jobs.size();) results[i] = build_one(ctx, lesson, jobs[i], backend, tc);
    };
    std::vector<std::thread> threads;
    for (int k = 0; k < std::max(1, parallel); ++k) threads.emplace_back(worker);
    for (auto& t : threads) t.join();
    return results;
}

}  // namespace workbook::grade
