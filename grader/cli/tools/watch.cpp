#include "tools/watch.hpp"

#include <cerrno>
#include <csignal>
#include <ctime>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "util/errors.hpp"

namespace fs = std::filesystem;

namespace workbook::tools {
namespace {

volatile std::sig_atomic_t g_stop_signal = 0;
void on_stop(int sig) { g_stop_signal = sig; }

// The terminal in key-at-a-time mode without echo (Ctrl-C still sends SIGINT), restored however the watch ends.
struct KeyMode {
    int fd = -1;
    termios saved{};
    explicit KeyMode(int keys_fd) {
        if (keys_fd < 0 || !::isatty(keys_fd) || ::tcgetattr(keys_fd, &saved) != 0) return;
        termios t = saved;
        t.c_lflag &= static_cast<tcflag_t>(~(ICANON | ECHO));
        t.c_cc[VMIN] = 1;
        t.c_cc[VTIME] = 0;
        if (::tcsetattr(keys_fd, TCSANOW, &t) == 0) fd = keys_fd;
    }
    ~KeyMode() {
        if (fd >= 0) ::tcsetattr(fd, TCSANOW, &saved);
    }
};

// SIGINT and SIGTERM end the wait for a key at once (no SA_RESTART); the previous handlers come back afterwards.
struct StopSignals {
    struct sigaction old_int {
    }, old_term{};
    StopSignals() {
        g_stop_signal = 0;
        struct sigaction sa {};
        sa.sa_handler = on_stop;
        sigemptyset(&sa.sa_mask);
        ::sigaction(SIGINT, &sa, &old_int);
        ::sigaction(SIGTERM, &sa, &old_term);
    }
    ~StopSignals() {
        ::sigaction(SIGINT, &old_int, nullptr);
        ::sigaction(SIGTERM, &old_term, nullptr);
    }
};

// One grade in its own process group: the terminal's Ctrl-C reaches the watch only, which then stops the group.
struct Grade {
    pid_t pid = -1;
    void start(const std::vector<std::string>& argv) {
        std::vector<char*> args;
        for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        pid = ::fork();
        if (pid == 0) {
            ::setpgid(0, 0);
            const int null = ::open("/dev/null", O_RDONLY);  // keys are the watch's, not the grade's
            if (null >= 0) ::dup2(null, 0);
            ::signal(SIGINT, SIG_DFL);
            ::signal(SIGTERM, SIG_DFL);
            ::execv(args[0], args.data());
            ::_exit(127);
        }
        if (pid > 0) ::setpgid(pid, pid);  // also from here: no window where kill(-pid) misses it
    }
    bool running() {
        if (pid <= 0) return false;
        int status = 0;
        if (::waitpid(pid, &status, WNOHANG) == pid) pid = -1;
        return pid > 0;
    }
    // SIGTERM lets the grade stop its own test processes; whatever is left after a second is killed.
    void stop() {
        if (!running()) return;
        ::kill(-pid, SIGTERM);
        for (int i = 0; i < 100 && running(); ++i) ::usleep(10000);
        if (pid > 0) {
            ::kill(-pid, SIGKILL);
            ::waitpid(pid, nullptr, 0);
            pid = -1;
        }
    }
    ~Grade() { stop(); }
};

std::string clock_now() {
    std::time_t t = std::time(nullptr);
    std::tm tm{};
    localtime_r(&t, &tm);
    char buf[16];
    std::strftime(buf, sizeof buf, "%H:%M:%S", &tm);
    return buf;
}

}  // namespace

std::size_t fingerprint(const std::vector<fs::path>& files) {
    std::size_t h = 0;
    auto mix = [&h](std::size_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); };
    for (const auto& f : files) {
        std::error_code ec;
        mix(std::hash<std::string>{}(f.string()));
        if (!fs::exists(f, ec)) {
            mix(1);
            continue;
        }
        mix(static_cast<std::size_t>(fs::file_size(f, ec)));
        mix(static_cast<std::size_t>(fs::last_write_time(f, ec).time_since_epoch().count()));
        std::ifstream in(f, std::ios::binary);
        std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        mix(std::hash<std::string>{}(content));
    }
    return h;
}

WatchResult watch(const WatchOptions& opt, std::ostream& out) {
    if (opt.grade_command.empty()) throw util::UserError("watch: no grade command.");
    WatchResult result;
    StopSignals signals;
    KeyMode keys(opt.keys_fd);
    Grade grade;
    bool waiting_shown = false;
    const std::string quit_keys = opt.keys_fd >= 0 ? "q or Ctrl-C quits" : "Ctrl-C quits";

    auto start = [&](const std::string& why) {
        if (grade.running()) {
            grade.stop();
            ++result.cancelled;
            out << "\n(a newer save: the grade in progress was stopped)\n";
        }
        if (opt.clear_screen) out << "\033[H\033[2J";
        out << "\n──── " << clock_now() << "  grade " << (result.grades + 1) << ": " << why << " ────\n" << std::flush;
        ++result.grades;
        waiting_shown = false;
        grade.start(opt.grade_command);
    };

    int keys_fd = opt.keys_fd;
    std::size_t last = fingerprint(opt.files);
    if (opt.grade_at_start) start("started watching");
    auto changed_at = std::chrono::steady_clock::now();
    auto quiet_since = changed_at;
    bool pending = false, noticed = false;
    for (;;) {
        if (!opt.keep_going()) break;
        // Wait for a key (or a signal) up to one poll interval.
        if (keys_fd >= 0) {
            pollfd p{keys_fd, POLLIN, 0};
            if (::poll(&p, 1, static_cast<int>(opt.poll.count())) > 0) {
                char c = 0;
                const ssize_t n = ::read(keys_fd, &c, 1);
                if (n == 1 && (c == 'q' || c == 'Q')) result.stopped_by = "q";
                else if (n == 1 && c == 3) result.stopped_by = "Ctrl-C";
                else if (n == 0 || (n < 0 && errno != EINTR)) keys_fd = -1;  // end of input: no keys any more
            }
        } else {
            ::usleep(static_cast<useconds_t>(opt.poll.count()) * 1000);
        }
        if (g_stop_signal) result.stopped_by = g_stop_signal == SIGINT ? "Ctrl-C" : "signal";
        if (!result.stopped_by.empty()) break;

        if (!grade.running() && result.grades > 0 && !waiting_shown) {
            waiting_shown = true;
            out << "\nWatching " << opt.files.size() << " file" << (opt.files.size() == 1 ? "" : "s")
                << " for changes (" << quit_keys << ")...\n"
                << std::flush;
        }
        const auto now = std::chrono::steady_clock::now();
        const std::size_t fp = fingerprint(opt.files);
        if (fp != last) {
            last = fp;
            changed_at = now;
            pending = true;
        }
        if (pending && now - changed_at >= opt.settle) {
            pending = false;
            start("a file was saved");
            quiet_since = now;
            noticed = false;
            continue;
        }
        if (!pending && !grade.running() && !noticed && now - quiet_since >= opt.quiet_notice) {
            noticed = true;
            out << "No change seen for " << opt.quiet_notice.count()
                << " s. If you did save, your editor may be writing elsewhere or your file system may not report "
                   "changes: run `"
                << opt.manual_command << "` by hand.\n"
                << std::flush;
        }
    }
    if (grade.running()) {
        grade.stop();
        ++result.cancelled;
    }
    if (!result.stopped_by.empty()) out << "\nStopped watching (" << result.stopped_by << ").\n" << std::flush;
    return result;
}

}  // namespace workbook::tools
