#include "util/process.hpp"

#include "signals.hpp"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <thread>

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/util.hpp"

extern char** environ;

namespace workbook::util {

namespace fs = std::filesystem;

namespace {

volatile std::sig_atomic_t g_interrupted = 0;

void on_interrupt(int) { g_interrupted = 1; }

std::string read_capped(const fs::path& p, std::size_t limit) {
    std::ifstream in(p, std::ios::binary);
    if (!in) return {};
    in.seekg(0, std::ios::end);
    const auto size = static_cast<std::size_t>(in.tellg());
    in.seekg(0);
    std::string data;
    if (size <= limit) {
        data.resize(size);
        in.read(data.data(), static_cast<std::streamsize>(size));
        return data;
    }
    // Keep the head (first errors) and the tail (last words before a crash).
    std::string head(limit / 2, '\0'), tail(limit / 2, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    in.seekg(static_cast<std::streamoff>(size - tail.size()));
    in.read(tail.data(), static_cast<std::streamsize>(tail.size()));
    return head + "\n… (" + std::to_string(size - limit) + " bytes of output left out) …\n" + tail;
}

std::uint64_t rss_mb(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/statm");
    std::uint64_t size = 0, resident = 0;
    if (!(in >> size >> resident)) return 0;
    return resident * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE)) / (1024 * 1024);
}

}  // namespace

void install_interrupt_handler() {
    struct sigaction sa {};
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGINT, &sa, nullptr);
    ::sigaction(SIGTERM, &sa, nullptr);
}

bool interrupted() { return g_interrupted != 0; }

std::string signal_name(int sig) { return wb::signal_description(sig); }

Child::Child(ProcessSpec spec) : spec_(std::move(spec)) {}

Child::~Child() {
    if (pid_ > 0 && !done_) {
        kill_group();
        int st;
        ::waitpid(pid_, &st, 0);
    }
    std::error_code ec;
    if (!tmp_dir_.empty()) fs::remove_all(tmp_dir_, ec);
}

void Child::start() {
    char tmpl[] = "/tmp/workbook-proc-XXXXXX";
    if (!::mkdtemp(tmpl)) {
        result_.start_error = std::string("cannot create a temporary directory: ") + std::strerror(errno);
        done_ = true;
        return;
    }
    tmp_dir_ = tmpl;
    const std::string out_path = (tmp_dir_ / "stdout").string();
    const std::string err_path = (tmp_dir_ / "stderr").string();

    // Everything the child needs is prepared before fork: after fork only async-signal-safe calls.
    std::vector<std::string> env_strings;
    for (char** e = environ; !spec_.clear_env && *e; ++e) {
        std::string s(*e);
        bool replaced = false;
        for (const auto& [k, v] : spec_.env)
            if (s.compare(0, k.size() + 1, k + "=") == 0) replaced = true;
        if (!replaced) env_strings.push_back(s);
    }
    for (const auto& [k, v] : spec_.env) env_strings.push_back(k + "=" + v);
    std::vector<char*> envp, argv;
    for (auto& s : env_strings) envp.push_back(s.data());
    envp.push_back(nullptr);
    std::vector<std::string> args = spec_.argv;
    for (auto& s : args) argv.push_back(s.data());
    argv.push_back(nullptr);
    const std::string cwd = spec_.cwd.string();

    int in_pipe[2], err_pipe[2];
    if (::pipe2(in_pipe, O_CLOEXEC) != 0 || ::pipe2(err_pipe, O_CLOEXEC) != 0) {
        result_.start_error = std::string("pipe: ") + std::strerror(errno);
        done_ = true;
        return;
    }
    start_ = std::chrono::steady_clock::now();
    pid_ = ::fork();
    if (pid_ < 0) {
        result_.start_error = std::string("fork: ") + std::strerror(errno);
        done_ = true;
        return;
    }
    if (pid_ == 0) {
        ::setpgid(0, 0);
        int out_fd = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int err_fd = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        ::dup2(in_pipe[0], 0);
        if (out_fd >= 0) ::dup2(out_fd, 1);
        if (err_fd >= 0) ::dup2(err_fd, 2);
        if (!cwd.empty() && ::chdir(cwd.c_str()) != 0) _exit(127);
        struct rlimit rl;
        rl.rlim_cur = rl.rlim_max = 0;
        ::setrlimit(RLIMIT_CORE, &rl);
        if (spec_.fsize_limit_mb) {
            rl.rlim_cur = rl.rlim_max = spec_.fsize_limit_mb * 1024 * 1024;
            ::setrlimit(RLIMIT_FSIZE, &rl);
        }
        if (spec_.as_limit_mb) {
            rl.rlim_cur = rl.rlim_max = spec_.as_limit_mb * 1024 * 1024;
            ::setrlimit(RLIMIT_AS, &rl);
        }
        if (spec_.data_limit_mb) {
            rl.rlim_cur = rl.rlim_max = spec_.data_limit_mb * 1024 * 1024;
            ::setrlimit(RLIMIT_DATA, &rl);
        }
        if (spec_.cpu_limit_s) {
            rl.rlim_cur = rl.rlim_max = spec_.cpu_limit_s;
            ::setrlimit(RLIMIT_CPU, &rl);
        }
        // Landlock needs no-new-privileges first; a ruleset that cannot be applied runs nothing.
        if (spec_.landlock_fd >= 0 && (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
                                       ::syscall(SYS_landlock_restrict_self, spec_.landlock_fd, 0) != 0)) {
            int e = errno;
            ssize_t w = ::write(err_pipe[1], &e, sizeof e);
            (void)w;
            _exit(127);
        }
        ::execve(argv[0], argv.data(), envp.data());
        int e = errno;
        ssize_t w = ::write(err_pipe[1], &e, sizeof e);
        (void)w;
        _exit(127);
    }
    ::setpgid(pid_, pid_);  // also from the parent: no window where a kill(-pid) misses the child
    ::close(in_pipe[0]);
    ::close(err_pipe[1]);
    int child_errno = 0;
    ssize_t n = ::read(err_pipe[0], &child_errno, sizeof child_errno);
    ::close(err_pipe[0]);
    if (n == static_cast<ssize_t>(sizeof child_errno)) {
        int st;
        ::waitpid(pid_, &st, 0);
        pid_ = -1;
        result_.start_error = "cannot run " + spec_.argv[0] + ": " + std::strerror(child_errno);
        ::close(in_pipe[1]);
        done_ = true;
        return;
    }
    result_.started = true;
    // A child that never reads stdin must not block us: stdin data is one short line, below the pipe buffer.
    if (!spec_.stdin_data.empty()) {
        ::signal(SIGPIPE, SIG_IGN);
        ssize_t w = ::write(in_pipe[1], spec_.stdin_data.data(), spec_.stdin_data.size());
        (void)w;
    }
    ::close(in_pipe[1]);
}

void Child::kill_group() {
    if (pid_ > 0) {
        ::kill(-pid_, SIGKILL);
        ::kill(pid_, SIGKILL);
    }
}

void Child::finish(int status) {
    result_.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (WIFEXITED(status)) result_.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) result_.signal = WTERMSIG(status);
    ::kill(-pid_, SIGKILL);  // anything the program forked dies with it
    result_.out = read_capped(tmp_dir_ / "stdout", spec_.capture_limit);
    result_.err = read_capped(tmp_dir_ / "stderr", spec_.capture_limit);
    if (!spec_.raw_output) {
        result_.out = util::sanitize_text(result_.out);
        result_.err = util::sanitize_text(result_.err);
    }
    done_ = true;
}

bool Child::poll() {
    if (done_) return true;
    int status = 0;
    pid_t r = ::waitpid(pid_, &status, WNOHANG);
    if (r == pid_) {
        finish(status);
        return true;
    }
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    bool kill_now = g_interrupted != 0;
    if (kill_now) {
    } else if (spec_.timeout_s > 0 && elapsed > spec_.timeout_s) {
        result_.timed_out = true;
        kill_now = true;
    } else if (spec_.rss_limit_mb && rss_mb(pid_) > spec_.rss_limit_mb) {
        result_.memory_exceeded = true;
        kill_now = true;
    }
    if (kill_now) {
        kill_group();
        ::waitpid(pid_, &status, 0);
        finish(status);
        return true;
    }
    return false;
}

ProcessResult run_process(const ProcessSpec& spec) {
    Child c(spec);
    c.start();
    while (!c.poll()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return c.result();
}

}  // namespace workbook::util
