// Self-test of the worker's sandbox (remote/sandbox.cpp), run by `make test`: this program starts itself confined,
// once with each layer set this machine allows (seccomp + rlimits alone, and bubblewrap's namespaces on top), and the
// confined copy tries what a hostile submission would. Each attempt must be refused, or (with namespaces) must
// leave no trace outside. Probes that could harm the machine if a layer failed use harmless forms: signal 0 tests
// whether a kill would be delivered without delivering anything.
#include <fcntl.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "sandbox.hpp"

namespace {

// One line "name result" per attempt: "refused:<errno name>" or "allowed".
void report(const char* name, long rc) {
    std::printf("%s %s\n", name, rc < 0 ? (std::string("refused:") + strerrorname_np(errno)).c_str() : "allowed");
}

int probe(const std::string& outside_file, const std::string& judge_pid, const std::string& view_dir) {
    std::string why;
    if (!wb::sandbox::forbid_new_processes(&why)) std::printf("forbid_new_processes failed: %s\n", why.c_str());
    const pid_t child = ::fork();
    if (child == 0) _exit(0);
    report("fork", child);
    report("socket_inet", ::socket(AF_INET, SOCK_STREAM, 0));
    report("socket_unix", ::socket(AF_UNIX, SOCK_STREAM, 0));
    report("connect", ::connect(0, nullptr, 0));
    report("ptrace", ::ptrace(PTRACE_TRACEME, 0, nullptr, nullptr));
    report("kill_everyone", ::kill(-1, 0));
    report("kill_judge", ::kill(std::atoi(judge_pid.c_str()), 0));
    report("unshare_user", ::unshare(CLONE_NEWUSER));
    report("io_uring", ::syscall(SYS_io_uring_setup, 1, nullptr));
    report("clone3", ::syscall(SYS_clone3, nullptr, 0));
    report("write_outside", ::open(outside_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644));
    report("read_judge_environ", ::open(("/proc/" + judge_pid + "/environ").c_str(), O_RDONLY));
    // The view: a hidden folder's file is not there to read, a path shown again inside it is.
    report("read_hidden", ::open((view_dir + "/secret.txt").c_str(), O_RDONLY));
    report("read_shown", ::open((view_dir + "/lib/shown.txt").c_str(), O_RDONLY));
    const char* argv[] = {"/bin/true", nullptr};
    report("exec", ::execve(argv[0], const_cast<char* const*>(argv), nullptr));
    {
        // Threads stay allowed: the CUDA runtime and the emulator's watchdog need them.
        std::thread t([] {});
        t.join();
        report("thread", 0);
    }
    std::fflush(stdout);
    return 0;
}

std::map<std::string, std::string> parse(const std::string& text) {
    std::map<std::string, std::string> m;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t end = text.find('\n', pos);
        const std::string line = text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
        const std::size_t sp = line.find(' ');
        if (sp != std::string::npos) m[line.substr(0, sp)] = line.substr(sp + 1);
        if (end == std::string::npos) break;
        pos = end + 1;
    }
    return m;
}

int failures = 0;

void expect(bool ok, const std::string& mode, const std::string& what, const std::string& got) {
    std::printf("%s %s: %s (%s)\n", ok ? "ok  " : "FAIL", mode.c_str(), what.c_str(), got.c_str());
    if (!ok) ++failures;
}

// A wrapper that starts the worker as its child, the way compute-sanitizer does (SANITIZE=1).
const std::vector<std::string> kForkingWrapper = {"/bin/sh", "-c", "\"$@\"; exit $?", "sh"};

void run_mode(const char* self, const std::string& mode, const std::string& backend = "emu",
              const std::vector<std::string>& wrapper = {}) {
    const std::string outside = "/tmp/wb-sandbox-test-canary-" + std::to_string(::getpid());
    ::unlink(outside.c_str());
    // A folder hidden from the worker, beside this program (outside /tmp, which the namespaces replace anyway), with
    // its library folder shown again; the folder of this program is hidden too, as a grade hides the build: the
    // program itself must still start.
    char cwd[4096] = {};
    const std::string view =
        std::string(::getcwd(cwd, sizeof cwd - 1) ? cwd : ".") + "/wb-sandbox-view-" + std::to_string(::getpid());
    ::mkdir(view.c_str(), 0755);
    ::mkdir((view + "/lib").c_str(), 0755);
    for (const char* f : {"/secret.txt", "/lib/shown.txt"})
        ::close(::open((view + f).c_str(), O_WRONLY | O_CREAT, 0644));
    std::string program_dir = self;
    program_dir = program_dir.find('/') == std::string::npos ? "." : program_dir.substr(0, program_dir.rfind('/'));
    wb::sandbox::Options o;
    o.backend = backend;
    o.mode = mode;
    o.env = {"PATH=/usr/bin:/bin", "LD_LIBRARY_PATH=" + view + "/lib"};
    o.hide = {view, program_dir};
    o.wrapper = wrapper;
    const int out = ::memfd_create("probe-output", 0);
    auto s = wb::sandbox::start(o, {self, "--probe", outside, std::to_string(::getpid()), view}, {}, out);
    if (!s.error.empty()) {
        expect(false, mode, "start", s.error);
        return;
    }
    int status = 0;
    ::waitpid(s.pid, &status, 0);
    std::string text(1 << 16, '\0');
    const ssize_t n = ::pread(out, text.data(), text.size(), 0);
    text.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
    const auto r = parse(text);
    auto refused = [&](const char* k) { return r.count(k) && r.at(k).rfind("refused", 0) == 0; };
    auto got = [&](const char* k) { return r.count(k) ? r.at(k) : std::string("no answer"); };
    const std::string label = mode + "/" + backend + (wrapper.empty() ? "" : "/wrapped");
    const bool ran = WIFEXITED(status) && WEXITSTATUS(status) == 0 && r.count("thread");
    expect(ran, label, "the probe ran to its end",
           ran ? "exit 0" : "exit " + std::to_string(WEXITSTATUS(status)) + ", output:\n" + text);
    for (const char* k :
         {"fork", "socket_inet", "socket_unix", "ptrace", "unshare_user", "io_uring", "exec", "connect"})
        expect(refused(k) || (backend == "gpu" && std::string(k) == "socket_unix"), label,
               std::string(k) + " is refused", got(k));
    expect(got("clone3") == "refused:ENOSYS", label, "clone3 answers ENOSYS (so the C library uses clone)",
           got("clone3"));
    // Signals: without namespaces seccomp refuses any kill but to itself; inside a PID namespace nothing else is seen.
    expect(mode == "bwrap" || refused("kill_everyone"), label, "kill(-1) is refused", got("kill_everyone"));
    expect(refused("kill_judge"), label, "the judge cannot be signalled", got("kill_judge"));
    expect(refused("read_judge_environ"), label, "the judge's /proc files cannot be read", got("read_judge_environ"));
    // Without namespaces a folder is hidden by Landlock, on emu, where the kernel has it (the report names it).
    if (mode == "bwrap" || s.layers.filesystem.find("(Landlock") != std::string::npos) {
        expect(refused("read_hidden"), label, "a hidden folder's file cannot be read", got("read_hidden"));
        expect(got("read_shown") == "allowed", label, "a path shown inside a hidden folder can be read",
               got("read_shown"));
    }
    // On gpu without namespaces nothing confines the filesystem (the CUDA driver does not start under Landlock): the
    // report must say so instead.
    if (backend == "gpu" && mode == "none")
        expect(s.layers.filesystem.rfind("not isolated", 0) == 0, label,
               "the report says the filesystem is not isolated", s.layers.filesystem);
    else expect(::access(outside.c_str(), F_OK) != 0, label, "nothing was written outside", outside);
    expect(wrapper.empty() ? s.layers.seccomp == "on" : s.layers.seccomp.rfind("on, with process creation", 0) == 0,
           label, "seccomp is reported on", s.layers.seccomp);
    ::unlink(outside.c_str());
    for (const char* f : {"/lib/shown.txt", "/secret.txt"}) ::unlink((view + f).c_str());
    ::rmdir((view + "/lib").c_str());
    ::rmdir(view.c_str());
    ::close(out);
}

// The compile's view (confined_command, as grade/build.cpp's Confinement uses it): a file shown by a symbolic link's
// name, the way a link library is named (`libx.so -> libx.so.1`), can be opened by that name, inside a hidden folder
// and inside the private /tmp (where a machine's unpacked packages may live); the hidden folder's other files cannot.
void run_shown_link(const std::string& base, const char* where) {
    const std::string dir = base + "/wb-sandbox-link-" + std::to_string(::getpid());
    ::mkdir(dir.c_str(), 0755);
    ::close(::open((dir + "/libx.so.1").c_str(), O_WRONLY | O_CREAT, 0644));
    ::close(::open((dir + "/secret.txt").c_str(), O_WRONLY | O_CREAT, 0644));
    ::symlink("libx.so.1", (dir + "/libx.so").c_str());
    using Kind = wb::sandbox::ViewPath::Kind;
    const std::vector<wb::sandbox::ViewPath> view = {{Kind::hidden, dir}, {Kind::read_only, dir + "/libx.so"}};
    auto runs = [&](const std::string& file) {
        const auto argv = wb::sandbox::confined_command("bwrap", view, {"PATH=/usr/bin:/bin"}, false, "/",
                                                        {"/bin/sh", "-c", "exec < \"$0\"", file});
        std::vector<char*> args;
        for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        const pid_t pid = ::fork();
        if (pid == 0) {
            const int devnull = ::open("/dev/null", O_WRONLY);
            ::dup2(devnull, 1);
            ::dup2(devnull, 2);
            ::execvp(args[0], args.data());
            _exit(127);
        }
        int status = 0;
        ::waitpid(pid, &status, 0);
        return WIFEXITED(status) && WEXITSTATUS(status) == 0;
    };
    const std::string label = std::string("bwrap/compile view in ") + where;
    expect(runs(dir + "/libx.so"), label, "a file shown by a link's name can be opened by it", dir + "/libx.so");
    expect(!runs(dir + "/secret.txt"), label, "the hidden folder's other files cannot", dir + "/secret.txt");
    for (const char* f : {"/libx.so", "/libx.so.1", "/secret.txt"}) ::unlink((dir + f).c_str());
    ::rmdir(dir.c_str());
}

}  // namespace

int main(int argc, char** argv) {
    if (argc == 5 && std::strcmp(argv[1], "--probe") == 0) return probe(argv[2], argv[3], argv[4]);
    ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);  // as the judge does
    run_mode(argv[0], "none");
    // On gpu seccomp lets files be written (the driver opens its devices read-write).
    run_mode(argv[0], "none", "gpu");
    std::string why;
    if (wb::sandbox::bwrap_usable("bwrap", &why)) {
        run_mode(argv[0], "bwrap");
        run_mode(argv[0], "bwrap", "gpu");
        // Under a wrapper that forks and execs the worker, the worker still cannot start a process or a program.
        run_mode(argv[0], "bwrap", "gpu", kForkingWrapper);
        char cwd[4096] = {};
        run_shown_link(::getcwd(cwd, sizeof cwd - 1) ? cwd : ".", "a hidden folder");
        run_shown_link("/tmp", "the private /tmp");
    } else std::printf("skip bwrap: %s\n", why.c_str());
    {
        // A wrapper needs the namespaces: without them it is refused, with a sentence.
        wb::sandbox::Options o;
        o.backend = "gpu";
        o.mode = "none";
        o.wrapper = kForkingWrapper;
        const auto s =
            wb::sandbox::start(o, {argv[0], "--probe", "/nonexistent", "0", "/nonexistent"}, {}, STDOUT_FILENO);
        expect(s.pid < 0 && s.error.find("only inside bubblewrap") != std::string::npos, "none/gpu/wrapped",
               "a wrapper without namespaces is refused", s.error.empty() ? "started" : s.error);
    }
    std::printf("%s\n", failures ? "sandbox self-test FAILED" : "sandbox self-test passed");
    return failures ? 1 : 0;
}
