#include "common/subprocess.hpp"

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;

namespace workbook::review {

std::string which(const std::string& program) {
    if (program.find('/') != std::string::npos) return access(program.c_str(), X_OK) == 0 ? program : "";
    const char* path = std::getenv("PATH");
    std::string p = path ? path : "/usr/bin:/bin";
    std::size_t start = 0;
    while (start <= p.size()) {
        std::size_t end = p.find(':', start);
        if (end == std::string::npos) end = p.size();
        std::string dir = p.substr(start, end - start);
        if (!dir.empty()) {
            std::string cand = dir + "/" + program;
            if (access(cand.c_str(), X_OK) == 0 && !fs::is_directory(cand)) return cand;
        }
        start = end + 1;
    }
    return "";
}

RunResult run_program(const std::vector<std::string>& argv, const fs::path& cwd, int timeout_s) {
    RunResult r;
    if (argv.empty()) return r;
    const std::string exe = which(argv[0]);
    if (exe.empty()) return r;
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return r;
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return r;
    }
    if (pid == 0) {
        // Own process group, so a time-out can stop the tool and everything it started.
        setpgid(0, 0);
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0) dup2(devnull, 0);
        if (!cwd.empty() && chdir(cwd.c_str()) != 0) _exit(127);
        std::vector<char*> args;
        for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        execv(exe.c_str(), args.data());
        _exit(127);
    }
    close(fds[1]);
    r.started = true;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s > 0 ? timeout_s : 1 << 30);
    char buf[4096];
    bool open_pipe = true;
    while (open_pipe) {
        pollfd pfd{fds[0], POLLIN, 0};
        int ready = poll(&pfd, 1, 200);
        if (ready > 0) {
            ssize_t n = read(fds[0], buf, sizeof buf);
            if (n > 0) r.output.append(buf, static_cast<std::size_t>(n));
            else if (n == 0 || errno != EINTR) open_pipe = false;
        }
        if (timeout_s > 0 && std::chrono::steady_clock::now() > deadline) {
            kill(-pid, SIGKILL);
            r.timed_out = true;
            break;
        }
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    if (!r.timed_out && WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
    return r;
}

}  // namespace workbook::review
