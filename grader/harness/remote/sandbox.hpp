// How a judge starts its worker: the student's code in a process of its own, confined with what Linux and Debian
// provide. Layers, each used where this machine allows it (docs/security.md):
//
//   namespaces  bubblewrap: private PID, network, IPC, UTS, user (and cgroup) namespaces; a read-only view of the
//               filesystem with an empty private /tmp, a minimal /dev (plus the GPU's device files on gpu); the whole
//               namespace dies with the judge, so nothing the worker starts outlives the test.
//   seccomp     libseccomp, installed before the worker's first instruction: no new processes (fork, vfork, clone
//               without CLONE_THREAD), no ptrace or access to other processes' memory, no sockets, no mounts, no
//               namespaces, no io_uring, no kernel keyrings or BPF; on emu also no file creation, writing opens,
//               renames or deletions (the emulator needs none, so the filesystem stays untouched even without
//               namespaces).
//   rlimits     core dumps off, output size, open files, CPU time, address space (emu).
//   session     its own session and process group, killed with the judge (PR_SET_PDEATHSIG).
#pragma once

#include <string>
#include <vector>

namespace wb::sandbox {

struct Options {
    std::string backend = "emu";         // "emu" or "gpu" (the GPU's device files and writable opens are allowed)
    std::string mode = "auto";           // "bwrap", "none" or "auto" (bwrap when it works here); "off": no
                                         // confinement at all, only to measure the solutions' coverage
    std::string why_none;                // with "none": why (shown in the report); default: turned off by the user
    std::string bwrap = "bwrap";         // the bubblewrap executable
    double cpu_limit_s = 0;              // RLIMIT_CPU; 0: none
    unsigned long long as_limit_mb = 0;  // RLIMIT_AS; 0: none
    unsigned long long fsize_limit_mb = 16;
    std::vector<std::string> env;  // KEY=VALUE: the worker's whole environment
    // Folders the worker must not see: an empty tmpfs each inside the namespace; without namespaces (emu), outside
    // Landlock's rules. The worker's own program (and library path) is shown again inside them.
    std::vector<std::string> hide;
    // Diagnosis only (wb-sandbox-run --trap): a refused syscall raises SIGSYS instead of failing with an errno, so a
    // program's handler can name every call the filter refuses it.
    bool trap = false;
    std::vector<std::string> allow;  // diagnosis only (wb-sandbox-run --allow NAME): syscalls left out of the filter
    bool landlock = true;            // diagnosis only (wb-sandbox-run --no-landlock)
    // A program the worker runs under, with its arguments: compute-sanitizer, for SANITIZE=1 on a GPU. It starts the
    // worker as its child and talks to it over a local socket, so process creation, exec and connect stay in the
    // filter; that is allowed only inside bubblewrap's namespaces (the socket's peer can then only be in the same
    // sandbox), and the worker forbids all three to itself once its main begins (forbid_new_processes). What such a run
    // reports is advice: the points come from the run without it.
    std::vector<std::string> wrapper;
};

// One path of the view a submission's processes get of the filesystem: the worker, and the compiler that reads the
// submitted source (a compiler reads any file an #include or an assembler's .incbin names, and quotes it in its
// errors). Everything else stays visible read-only; hidden folders are empty; a path shown inside a hidden folder is
// seen again, read-only or writable.
struct ViewPath {
    enum class Kind { hidden, read_only, writable };
    Kind kind;
    std::string path;
};

// bubblewrap's arguments for the view (after its read-only "/", its /dev, /proc and private /tmp): the existing paths,
// made absolute, in depth order, so that a path shown inside a hidden folder is bound after the folder is hidden.
std::vector<std::string> view_arguments(const std::vector<ViewPath>& view);

// A command line that runs `argv` in bubblewrap's namespaces with that view and exactly the environment `env`
// (KEY=VALUE), without the worker's seccomp filter: for the compiler, which starts its own processes (cc1plus, as,
// ld). `gpu`: the GPU's device files too (nvcc -arch=native asks the device). Call only where bwrap_usable().
std::vector<std::string> confined_command(const std::string& bwrap, const std::vector<ViewPath>& view,
                                          const std::vector<std::string>& env, bool gpu, const std::string& cwd,
                                          const std::vector<std::string>& argv);

// The layers in force for one started worker, for the result file and the report.
struct Layers {
    std::string namespaces;  // "bubblewrap" or "none (why)"
    std::string seccomp;     // "on" or "off (why)"
    std::string filesystem;  // "read-only" / "read-only (seccomp)" / "not isolated"
    std::string rlimits = "on";
};

struct Started {
    int pid = -1;         // the process the judge waits for (bwrap, or the worker itself)
    int worker_pid = -1;  // the worker's own pid outside any namespace, when known (-1 otherwise)
    Layers layers;
    std::string error;  // non-empty: nothing was started
};

// Starts `argv` (argv[0] the worker executable) confined as above. `keep_fds` are passed to the worker as the
// descriptors 3, 4, …; `output_fd` becomes its stdout and stderr; its stdin is /dev/null. Call from a
// single-threaded process (the judge is one).
Started start(const Options& options, const std::vector<std::string>& argv, const std::vector<int>& keep_fds,
              int output_fd);

// True when bubblewrap can create its namespaces here (checked once per process by running it).
bool bwrap_usable(const std::string& bwrap, std::string* why);

// The worker's own last layer, from inside: forbids exec and new processes from here on. The judge's filter allows
// exec once, to start the worker (and, under a wrapper, process creation); after the worker's main has begun, no
// other program and no other process can be started.
bool forbid_new_processes(std::string* why);

}  // namespace wb::sandbox
