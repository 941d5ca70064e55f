// Child processes with the isolation a grader needs: own process group (killed as a whole), wall-clock limit,
// memory limits, stdin fed from a string, stdout/stderr captured in files (no pipe that a chatty program can fill).
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <sys/types.h>

namespace workbook::util {

struct ProcessSpec {
    std::vector<std::string> argv;
    std::filesystem::path cwd;                             // empty: inherit
    std::vector<std::pair<std::string, std::string>> env;  // added to / replacing the inherited environment
    bool clear_env = false;                                // true: `env` is the whole environment
    int landlock_fd =
        -1;  // a Landlock ruleset the child restricts itself to before exec (-1: none); the caller closes it
    std::string stdin_data;                  // written to the child's stdin, then closed
    double timeout_s = 0;                    // 0: no limit
    std::uint64_t rss_limit_mb = 0;          // polled resident memory of the child; 0: none
    std::uint64_t as_limit_mb = 0;           // RLIMIT_AS; 0: none (sanitizers and CUDA reserve huge address space)
    std::uint64_t fsize_limit_mb = 64;       // RLIMIT_FSIZE, bounds what a runaway program can write
    std::uint64_t data_limit_mb = 0;         // RLIMIT_DATA (heap and writable mappings, not reserved ranges); 0: none
    std::uint64_t cpu_limit_s = 0;           // RLIMIT_CPU of each process it starts; 0: none
    std::size_t capture_limit = 256 * 1024;  // bytes of stdout/stderr kept (head and tail)
    // A trusted tool whose output the caller parses (git's NUL-separated lists): kept byte for byte, not sanitized.
    bool raw_output = false;
};

struct ProcessResult {
    bool started = false;
    std::string start_error;
    int exit_code = -1;  // when exited normally
    int signal = 0;      // when killed by a signal (0 otherwise)
    bool timed_out = false;
    bool memory_exceeded = false;
    double wall_s = 0;
    std::string out;
    std::string err;
};

// A running child. poll() is non-blocking; the pipeline drives several at once.
class Child {
 public:
    explicit Child(ProcessSpec spec);
    ~Child();
    Child(const Child&) = delete;
    Child& operator=(const Child&) = delete;

    void start();
    // True when finished (then result() is final). Enforces the time and memory limits.
    bool poll();
    const ProcessResult& result() const { return result_; }

 private:
    void finish(int status);
    void kill_group();

    ProcessSpec spec_;
    ProcessResult result_;
    pid_t pid_ = -1;
    bool done_ = false;
    std::filesystem::path tmp_dir_;
    std::chrono::steady_clock::time_point start_;
};

// Starts and waits.
ProcessResult run_process(const ProcessSpec& spec);

std::string signal_name(int sig);

// Ctrl-C / SIGTERM: running children (in their own process groups, so the terminal's signal misses them) are killed
// at their next poll and interrupted() turns true; the caller then stops.
void install_interrupt_handler();
bool interrupted();

}  // namespace workbook::util
