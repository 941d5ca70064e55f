#include "util/reaper.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace workbook::util {

namespace {

// Children of this process, from /proc/<pid>/stat (field 4, after the command name in parentheses).
std::vector<pid_t> children() {
    std::vector<pid_t> out;
    const pid_t self = ::getpid();
    std::error_code ec;
    for (const auto& d : std::filesystem::directory_iterator("/proc", ec)) {
        const std::string name = d.path().filename().string();
        if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::ifstream in(d.path() / "stat");
        std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const auto close = stat.rfind(')');
        if (close == std::string::npos) continue;
        char state = 0;
        long ppid = 0;
        if (std::sscanf(stat.c_str() + close + 1, " %c %ld", &state, &ppid) == 2 && ppid == self)
            out.push_back(static_cast<pid_t>(std::stol(name)));
    }
    return out;
}

}  // namespace

bool become_subreaper() { return ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0; }

int kill_orphans() {
    std::set<pid_t> killed;
    // Each round kills the children we have; their own children then become ours. A killed process cannot fork, so
    // the rounds end; the bound is for a /proc that does not behave.
    for (int round = 0; round < 200; ++round) {
        const auto kids = children();
        if (kids.empty()) break;
        for (pid_t p : kids) {
            ::kill(p, SIGKILL);
            killed.insert(p);
        }
        while (::waitpid(-1, nullptr, WNOHANG) > 0) {}
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        while (::waitpid(-1, nullptr, WNOHANG) > 0) {}
    }
    return static_cast<int>(killed.size());
}

}  // namespace workbook::util
