#include "sandbox.hpp"

#include "landlock.hpp"
#include "view_paths.hpp"

#include <fcntl.h>
#include <glob.h>
#include <linux/capability.h>
#include <linux/sched.h>
#include <seccomp.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <csignal>
#include <cstdio>
#include <algorithm>
#include <filesystem>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace wb::sandbox {

namespace {

struct FilterDeleter {
    void operator()(void* ctx) const { seccomp_release(ctx); }
};
using Filter = std::unique_ptr<void, FilterDeleter>;

// Syscalls no kernel launcher needs, refused with EPERM. Grouped by what they would give a hostile worker.
const char* const kDenied[] = {
    // other processes: new ones, their memory, their descriptors
    "fork",
    "vfork",
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "kcmp",
    "pidfd_open",
    "pidfd_getfd",
    "pidfd_send_signal",
    "tkill",
    // the network and other machines' services (the worker's connection to its judge is inherited, not made);
    // socket, connect, bind, listen and accept have rules of their own below
    "socketpair",
    // mounts, namespaces, the root
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "unshare",
    "setns",
    "move_mount",
    "open_tree",
    "fsopen",
    "fsmount",
    "fsconfig",
    "fspick",
    "mount_setattr",
    // kernel interfaces that widen the attack surface or bypass this filter
    "keyctl",
    "add_key",
    "request_key",
    "bpf",
    "perf_event_open",
    "userfaultfd",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "name_to_handle_at",
    "open_by_handle_at",
    "kexec_load",
    "kexec_file_load",
    "init_module",
    "finit_module",
    "delete_module",
    "reboot",
    "swapon",
    "swapoff",
    "acct",
    "settimeofday",
    "clock_settime",
    "clock_adjtime",
    "adjtimex",
    "sethostname",
    "setdomainname",
    "iopl",
    "ioperm",
    "quotactl",
    "vhangup",
    "lookup_dcookie",
    "setpgid",
    "setsid",
};

// What a wrapper (Options::wrapper: compute-sanitizer) needs beyond a worker: it starts the worker as its child and
// connects to it over a local socket.
const char* const kWrapperNeeds[] = {"fork", "vfork", "clone", "clone3", "connect", "socketpair", "setpgid", "setsid"};

// On emu nothing the worker runs writes a file: refused as well (EACCES), so that even without namespaces it cannot
// touch the build cache, the results or another student's folder.
const char* const kDeniedOnEmu[] = {
    "creat",     "unlink",    "unlinkat",    "rename",       "renameat",     "renameat2", "mkdir",
    "mkdirat",   "rmdir",     "link",        "linkat",       "symlink",      "symlinkat", "chmod",
    "fchmod",    "fchmodat",  "chown",       "fchown",       "lchown",       "fchownat",  "truncate",
    "mknod",     "mknodat",   "utime",       "utimes",       "utimensat",    "futimesat", "setxattr",
    "lsetxattr", "fsetxattr", "removexattr", "lremovexattr", "fremovexattr",
};

// The rules of one filter as they are added: the first failure is kept in *why and makes every later add a no-op.
// `allow` (Options::allow, for diagnosis) names syscalls left out.
struct Rules {
    scmp_filter_ctx ctx;
    const std::vector<std::string>& allow;
    std::string* why;
    bool ok = true;

    void add(std::uint32_t action, const char* name, unsigned n = 0, const scmp_arg_cmp* cmp = nullptr) {
        if (!ok || std::find(allow.begin(), allow.end(), name) != allow.end()) return;
        const int nr = seccomp_syscall_resolve_name(name);
        if (nr == __NR_SCMP_ERROR) return;  // not a syscall of this architecture
        const int rc = seccomp_rule_add_array(ctx, action, nr, n, cmp);
        if (rc != 0) {
            *why = std::string("seccomp rule for ") + name + ": " + std::strerror(-rc);
            ok = false;
        }
    }
};

// `self`: the worker's pid when it runs outside a PID namespace (signals to anyone else are refused); 0 inside one.
Filter make_filter(bool emu, bool allow_exec, pid_t self, std::string* why, bool trap = false,
                   const std::vector<std::string>& allow = {}) {
    Filter f(seccomp_init(SCMP_ACT_ALLOW));
    if (!f) {
        *why = "seccomp_init failed";
        return nullptr;
    }
    scmp_filter_ctx ctx = f.get();
    // Syscalls of another ABI (i386 through int 0x80, x32) would bypass every rule: such a process is killed.
    seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
    const std::uint32_t eperm = trap ? SCMP_ACT_TRAP : SCMP_ACT_ERRNO(EPERM);
    const std::uint32_t eacces = trap ? SCMP_ACT_TRAP : SCMP_ACT_ERRNO(EACCES);
    Rules r{ctx, allow, why};
    for (const char* name : kDenied) r.add(eperm, name);
    // Threads are fine (CUDA's runtime and the emulator's watchdog start some); a clone that is not a thread is a new
    // process. clone3 hides its flags in memory a filter cannot read: ENOSYS makes the C library fall back to clone.
    const scmp_arg_cmp not_thread = SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0);
    r.add(eperm, "clone", 1, &not_thread);
    r.add(SCMP_ACT_ERRNO(ENOSYS), "clone3");
    r.add(SCMP_ACT_ERRNO(ENOSYS), "openat2");
    // Sockets: none on emu. The CUDA driver opens a local (AF_UNIX) socket while it creates its context (measured on
    // the H200: cudaMalloc fails with cudaErrorOperatingSystem when socket() is refused), to look for an MPS server or
    // a daemon; so on gpu a local socket may be made, but every connect answers "no such socket", as on a machine where
    // no daemon runs. No network socket, and no daemon of the host (docker.sock, say) is ever reached.
    // It then binds that socket and listens on it (measured the same way: without bind or listen, the same error);
    // the name lies in the worker's own network namespace, or its file in the private /tmp.
    if (emu) {
        for (const char* name : {"socket", "bind", "listen", "accept", "accept4"}) r.add(eperm, name);
    } else {
        const scmp_arg_cmp not_local = SCMP_A0(SCMP_CMP_NE, AF_UNIX);
        r.add(eperm, "socket", 1, &not_local);
    }
    r.add(trap ? SCMP_ACT_TRAP : SCMP_ACT_ERRNO(ENOENT), "connect");
    if (self > 0) {
        const scmp_arg_cmp other = SCMP_A0(SCMP_CMP_NE, static_cast<scmp_datum_t>(self));
        r.add(eperm, "kill", 1, &other);
        r.add(eperm, "tgkill", 1, &other);
    }
    if (!allow_exec) {
        r.add(eperm, "execve");
        r.add(eperm, "execveat");
    }
    if (emu) {
        for (const char* name : kDeniedOnEmu) r.add(eacces, name);
        for (scmp_datum_t bit : {O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND}) {
            const scmp_arg_cmp open_flag = SCMP_A1(SCMP_CMP_MASKED_EQ, bit, bit);
            const scmp_arg_cmp openat_flag = SCMP_A2(SCMP_CMP_MASKED_EQ, bit, bit);
            r.add(eacces, "open", 1, &open_flag);
            r.add(eacces, "openat", 1, &openat_flag);
        }
    }
    if (!r.ok) return nullptr;
    return f;
}

void set_limit(int resource, rlim_t value) {
    rlimit rl{value, value};
    ::setrlimit(resource, &rl);
}

// Without namespaces, a worker started by root would keep root's capabilities, and CAP_SYS_PTRACE reads any
// process's memory through /proc whatever its dumpable flag. Emptying the bounding set and the inheritable set
// leaves a program that root executes with no capability at all (capabilities(7), "execve"), so the judge's memory
// and descriptors are as closed to it as to any other user's process. Harmless when not root.
void drop_capabilities() {
    for (int cap = 0; cap <= 63; ++cap) ::prctl(PR_CAPBSET_DROP, cap, 0, 0, 0);
    ::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct data[2] = {};
    if (::syscall(SYS_capget, &header, data) == 0) {
        data[0].inheritable = data[1].inheritable = 0;
        ::syscall(SYS_capset, &header, data);
    }
}

// In the forked child, before exec: async-signal-safe calls only, except the seccomp load of the fallback (the judge
// is single-threaded, so the allocator is in a consistent state).
[[noreturn]] void exec_child(const Options& o, const std::vector<int>& keep, int output_fd, int seccomp_fd, int info_fd,
                             int landlock_fd, scmp_filter_ctx filter, char* const* argv, char* const* envp) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() == 1) _exit(126);  // the judge is already gone
    ::setsid();
    // Landlock first, while the ruleset's descriptor is still open (it needs no-new-privileges set before it).
    ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    if (landlock_fd >= 0 && !landlock_apply(landlock_fd)) _exit(124);
    // Descriptors: 0 /dev/null, 1 and 2 the output, 3.. the kept ones, then the bwrap-only ones.
    std::vector<int> src = keep;
    if (seccomp_fd >= 0) src.push_back(seccomp_fd);
    if (info_fd >= 0) src.push_back(info_fd);
    // Move every source above the target range first, so that dup2 never overwrites a source still needed.
    for (auto& fd : src) fd = ::fcntl(fd, F_DUPFD, 100);
    int out = ::fcntl(output_fd, F_DUPFD, 100);
    int devnull = ::open("/dev/null", O_RDONLY);
    ::dup2(devnull, 0);
    ::dup2(out, 1);
    ::dup2(out, 2);
    for (std::size_t i = 0; i < src.size(); ++i) ::dup2(src[i], 3 + static_cast<int>(i));
    ::syscall(SYS_close_range, 3 + src.size(), ~0U, 0);
    set_limit(RLIMIT_CORE, 0);
    set_limit(RLIMIT_NOFILE, 512);
    if (o.fsize_limit_mb) set_limit(RLIMIT_FSIZE, o.fsize_limit_mb << 20);
    if (o.cpu_limit_s > 0) set_limit(RLIMIT_CPU, static_cast<rlim_t>(o.cpu_limit_s + 1));
    if (o.as_limit_mb) set_limit(RLIMIT_AS, o.as_limit_mb << 20);
    if (filter != nullptr) drop_capabilities();
    if (filter && seccomp_load(filter) != 0) _exit(125);
    ::execve(argv[0], argv, envp);
    _exit(127);
}

std::vector<char*> c_strings(std::vector<std::string>& v) {
    std::vector<char*> out;
    for (auto& s : v) out.push_back(s.data());
    out.push_back(nullptr);
    return out;
}

std::vector<std::string> gpu_device_files() {
    std::vector<std::string> out;
    glob_t g{};
    if (::glob("/dev/nvidia*", 0, nullptr, &g) == 0)
        for (std::size_t i = 0; i < g.gl_pathc; ++i) out.push_back(g.gl_pathv[i]);
    ::globfree(&g);
    return out;
}

// bwrap's --info-fd writes {"child-pid": N, ...} once the sandbox is up.
int read_child_pid(int fd) {
    std::string text;
    char buf[512];
    for (ssize_t k; (k = ::read(fd, buf, sizeof buf)) > 0 && text.size() < 4096;) text.append(buf, k);
    const auto key = text.find("\"child-pid\"");
    if (key == std::string::npos) return -1;
    const auto colon = text.find(':', key);
    return colon == std::string::npos ? -1 : std::atoi(text.c_str() + colon + 1);
}

// `p` resolved, or `p` itself where it cannot be (bubblewrap then reports the missing path).
std::string absolute(const std::string& p) {
    std::string r = real_path(p);
    return r.empty() ? p : r;
}

// `name` as execve needs it: a path, found on PATH when it has no slash.
std::string on_path(const std::string& name) {
    if (name.find('/') != std::string::npos) return name;
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/bin:/bin";
    for (std::size_t pos = 0; pos <= dirs.size();) {
        const std::size_t end = std::min(dirs.find(':', pos), dirs.size());
        const std::string candidate = dirs.substr(pos, end - pos) + "/" + name;
        if (::access(candidate.c_str(), X_OK) == 0) return candidate;
        pos = end + 1;
    }
    return name;
}

// The worker's view: the folders the grade hides (the grading checkout, the build, the student state, the class's
// submissions), with what the worker needs from under them, or from under the private /tmp and /dev/shm (a checkout
// or a library folder can live in /tmp, as a CI clone often does), shown again read-only: its executable and its
// library path.
std::vector<ViewPath> worker_view(const Options& o, const std::vector<std::string>& argv_in) {
    std::vector<ViewPath> view;
    for (const auto& h : o.hide) view.push_back({ViewPath::Kind::hidden, h});
    if (!argv_in.empty()) view.push_back({ViewPath::Kind::read_only, absolute(argv_in[0])});
    for (const auto& kv : o.env)
        if (kv.rfind("LD_LIBRARY_PATH=", 0) == 0)
            for (std::size_t pos = 16; pos <= kv.size();) {
                const std::size_t end = std::min(kv.find(':', pos), kv.size());
                if (end > pos) view.push_back({ViewPath::Kind::read_only, absolute(kv.substr(pos, end - pos))});
                pos = end + 1;
            }
    return view;
}

// bubblewrap's fixed start for a submission's process: every namespace, no capability, the filesystem read-only with
// a minimal /dev, its own /proc and an empty /tmp and /dev/shm.
std::vector<std::string> bwrap_base(const std::string& bwrap, bool gpu) {
    std::vector<std::string> argv = {on_path(bwrap),
                                     "--unshare-all",
                                     "--die-with-parent",
                                     "--new-session",
                                     "--cap-drop",
                                     "ALL",
                                     "--ro-bind",
                                     "/",
                                     "/",
                                     "--dev",
                                     "/dev",
                                     "--proc",
                                     "/proc",
                                     "--tmpfs",
                                     "/tmp",
                                     "--tmpfs",
                                     "/dev/shm"};
    if (gpu)
        for (const auto& dev : gpu_device_files()) argv.insert(argv.end(), {"--dev-bind", dev, dev});
    return argv;
}

}  // namespace

std::vector<std::string> view_arguments(const std::vector<ViewPath>& view) {
    std::vector<ViewPath> paths;
    std::vector<std::string> private_dirs = {"/tmp", "/dev/shm"};  // empty in the view unless shown
    for (const auto& v : view) {
        const std::string p = absolute(v.path);
        if (p.empty() || p == "/" || ::access(p.c_str(), F_OK) != 0) continue;
        paths.push_back({v.kind, p});
        if (v.kind == ViewPath::Kind::hidden) private_dirs.push_back(p);
    }
    // A file shown by a symbolic link's name (a library's `libx.so -> libx.so.2.5`) is opened by that name: in an
    // empty folder of the view (the private /tmp, a hidden folder) the name exists only if it is bound too;
    // bubblewrap binds what the link points to at the link's place.
    for (const auto& v : view) {
        struct stat st {};
        if (v.kind == ViewPath::Kind::hidden || v.path.empty() || v.path[0] != '/' ||
            ::lstat(v.path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode))
            continue;
        const std::filesystem::path named = std::filesystem::path(v.path).lexically_normal();
        const std::string parent = named.parent_path().string();
        if (absolute(parent) != parent) continue;  // a link further up: bubblewrap could not make the name
        if (std::any_of(private_dirs.begin(), private_dirs.end(),
                        [&](const std::string& d) { return named != d && within(named.string(), d); }))
            paths.push_back({v.kind, named.string()});
    }
    // Shallower first; at one depth, hidden before shown, so that what is shown inside a hidden folder stays shown.
    auto depth = [](const std::string& p) { return std::count(p.begin(), p.end(), '/'); };
    std::stable_sort(paths.begin(), paths.end(), [&](const ViewPath& a, const ViewPath& b) {
        if (depth(a.path) != depth(b.path)) return depth(a.path) < depth(b.path);
        return a.kind == ViewPath::Kind::hidden && b.kind != ViewPath::Kind::hidden;
    });
    std::vector<std::string> args;
    for (const auto& v : paths) {
        if (v.kind == ViewPath::Kind::hidden) args.insert(args.end(), {"--tmpfs", v.path});
        else args.insert(args.end(), {v.kind == ViewPath::Kind::writable ? "--bind" : "--ro-bind", v.path, v.path});
    }
    return args;
}

std::vector<std::string> confined_command(const std::string& bwrap, const std::vector<ViewPath>& view,
                                          const std::vector<std::string>& env, bool gpu, const std::string& cwd,
                                          const std::vector<std::string>& argv_in) {
    std::vector<std::string> argv = bwrap_base(bwrap, gpu);
    const auto shown = view_arguments(view);
    argv.insert(argv.end(), shown.begin(), shown.end());
    if (!cwd.empty()) argv.insert(argv.end(), {"--chdir", cwd});
    argv.push_back("--clearenv");
    for (const auto& kv : env) {
        const auto eq = kv.find('=');
        if (eq != std::string::npos) argv.insert(argv.end(), {"--setenv", kv.substr(0, eq), kv.substr(eq + 1)});
    }
    argv.push_back("--");
    argv.insert(argv.end(), argv_in.begin(), argv_in.end());
    return argv;
}

bool bwrap_usable(const std::string& bwrap, std::string* why) {
    static int cached = -1;
    static std::string cached_why;
    if (cached < 0) {
        const pid_t pid = ::fork();
        if (pid == 0) {
            int devnull = ::open("/dev/null", O_RDWR);
            ::dup2(devnull, 0);
            ::dup2(devnull, 1);
            ::dup2(devnull, 2);
            const char* argv[] = {bwrap.c_str(),
                                  "--unshare-all",
                                  "--die-with-parent",
                                  "--ro-bind",
                                  "/",
                                  "/",
                                  "--dev",
                                  "/dev",
                                  "--proc",
                                  "/proc",
                                  "--",
                                  "/bin/true",
                                  nullptr};
            ::execvp(argv[0], const_cast<char* const*>(argv));
            _exit(127);
        }
        int status = 0;
        if (pid > 0) ::waitpid(pid, &status, 0);
        cached = pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
        if (!cached)
            cached_why = pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 127
                             ? "bubblewrap is not installed (Debian package bubblewrap)"
                             : "bubblewrap cannot create namespaces here (unprivileged user namespaces are off?)";
    }
    if (why) *why = cached_why;
    return cached == 1;
}

Started start(const Options& o, const std::vector<std::string>& argv_in, const std::vector<int>& keep_fds,
              int output_fd) {
    Started s;
    const bool emu = o.backend != "gpu";
    std::string why;
    bool use_bwrap = o.mode == "bwrap";
    if (o.mode == "auto") use_bwrap = bwrap_usable(o.bwrap, &why);
    if (!use_bwrap && o.mode != "none" && why.empty()) why = "bubblewrap was not asked for";
    if (o.mode == "none") why = o.why_none.empty() ? "turned off (WORKBOOK_SANDBOX=none)" : o.why_none;
    if (o.mode == "off") why = "turned off (coverage measurement)";

    // The filter bubblewrap loads (inside a PID namespace the worker cannot see its judge, so signals need no rule);
    // without bubblewrap the child builds its own, with its pid, after fork.
    std::string filter_error;
    // "off" is for measuring the solutions' line coverage (tests/coverage): the worker must write its .gcda files.
    const bool off = o.mode == "off";
    // Under a wrapper (compute-sanitizer), the calls it needs to start the worker and to reach it stay allowed.
    std::vector<std::string> allow = o.allow;
    if (!o.wrapper.empty()) {
        if (!use_bwrap) {
            s.error = "a wrapper (" + o.wrapper[0] +
                      ") runs the worker only inside bubblewrap's namespaces, and they are "
                      "not available here (" +
                      why + ")";
            return s;
        }
        allow.insert(allow.end(), std::begin(kWrapperNeeds), std::end(kWrapperNeeds));
    }
    Filter filter = off ? nullptr : make_filter(emu, /*allow_exec=*/true, 0, &filter_error, o.trap, allow);
    if (filter) filter_error.clear();
    if (off) filter_error = "turned off (coverage measurement)";

    std::vector<std::string> argv;
    std::vector<std::string> env = o.env;
    int seccomp_fd = -1, info_pipe[2] = {-1, -1};
    if (use_bwrap) {
        argv = bwrap_base(o.bwrap, !emu);
        const auto shown = view_arguments(worker_view(o, argv_in));
        argv.insert(argv.end(), shown.begin(), shown.end());
        argv.insert(argv.end(), {"--chdir", "/tmp", "--clearenv"});
        for (const auto& kv : o.env) {
            const auto eq = kv.find('=');
            if (eq != std::string::npos) argv.insert(argv.end(), {"--setenv", kv.substr(0, eq), kv.substr(eq + 1)});
        }
        const int next_fd = 3 + static_cast<int>(keep_fds.size());
        if (filter) {
            seccomp_fd = ::memfd_create("wb-seccomp", MFD_CLOEXEC);
            if (seccomp_fd < 0 || seccomp_export_bpf(filter.get(), seccomp_fd) != 0 ||
                ::lseek(seccomp_fd, 0, SEEK_SET) != 0) {
                filter_error = "the seccomp filter could not be exported for bubblewrap";
                if (seccomp_fd >= 0) ::close(seccomp_fd);
                seccomp_fd = -1;
            } else {
                argv.insert(argv.end(), {"--seccomp", std::to_string(next_fd)});
            }
        }
        if (::pipe2(info_pipe, O_CLOEXEC) == 0)
            argv.insert(argv.end(), {"--info-fd", std::to_string(next_fd + (seccomp_fd >= 0 ? 1 : 0))});
        argv.push_back("--");
        env.clear();  // bubblewrap sets the worker's environment itself (--clearenv, --setenv)
    }
    // The worker starts in its own folder (/tmp inside bubblewrap): a relative path would name another file there.
    if (!o.wrapper.empty()) {
        argv.push_back(on_path(o.wrapper[0]));
        argv.insert(argv.end(), o.wrapper.begin() + 1, o.wrapper.end());
    }
    const std::size_t first = argv.size();
    argv.insert(argv.end(), argv_in.begin(), argv_in.end());
    if (first < argv.size()) argv[first] = absolute(argv[first]);
    auto c_argv = c_strings(argv);
    auto c_env = c_strings(env);
    std::string landlock_why;
    // Without a mount namespace, the filesystem is confined by Landlock where the kernel has it, on emu: on gpu the
    // CUDA driver does not start under the ruleset (cudaErrorOperatingSystem at the first cudaMalloc on the H200, with
    // sockets allowed in /tmp and files in /dev/shm; measured 2026-12-01), so a GPU worker without namespaces is not
    // isolated from the filesystem, and the report says so.
    const int landlock_fd =
        use_bwrap || off || !o.landlock || !emu ? -1 : landlock_ruleset(&landlock_why, worker_view(o, argv_in));
    if (!o.landlock) landlock_why = "Landlock turned off";
    else if (!emu && !use_bwrap) landlock_why = "Landlock keeps the CUDA driver from starting";

    const pid_t pid = ::fork();
    if (pid < 0) {
        s.error = std::string("fork: ") + std::strerror(errno);
        return s;
    }
    if (pid == 0) {
        // Without namespaces the filter is loaded here, with the worker's pid known; with them, bubblewrap loads it.
        Filter own;
        std::string ignored;
        if (!use_bwrap && !off) own = make_filter(emu, true, ::getpid(), &ignored, o.trap, o.allow);
        exec_child(o, keep_fds, output_fd, seccomp_fd, info_pipe[1], landlock_fd, use_bwrap ? nullptr : own.get(),
                   c_argv.data(), c_env.data());
    }
    if (landlock_fd >= 0) ::close(landlock_fd);
    s.pid = pid;
    s.worker_pid = use_bwrap ? -1 : pid;
    if (seccomp_fd >= 0) ::close(seccomp_fd);
    if (info_pipe[1] >= 0) {
        ::close(info_pipe[1]);
        s.worker_pid = read_child_pid(info_pipe[0]);
        ::close(info_pipe[0]);
    }
    s.layers.namespaces =
        use_bwrap ? "bubblewrap (pid, net, ipc, uts; user and cgroup where the kernel allows)" : "none (" + why + ")";
    s.layers.seccomp = !filter_error.empty() ? "off (" + filter_error + ")"
                       : o.wrapper.empty()   ? "on"
                                           : "on, with process creation and local connections left to " + o.wrapper[0] +
                                                 " (the worker forbids them to itself)";
    const bool seccomp_writes = emu && filter_error.empty();
    s.layers.filesystem = use_bwrap          ? "read-only, private /tmp"
                          : off              ? "not isolated (sandbox off)"
                          : landlock_fd >= 0 ? (seccomp_writes ? "read-only (Landlock, and seccomp refuses every write)"
                                                               : "read-only but device files (Landlock)")
                          : seccomp_writes   ? "read-only (seccomp refuses every write; " + landlock_why + ")"
                                             : "not isolated (no namespaces, " + landlock_why + ")";
    return s;
}

bool forbid_new_processes(std::string* why) {
    Filter f(seccomp_init(SCMP_ACT_ALLOW));
    if (!f) {
        *why = "seccomp_init failed";
        return false;
    }
    seccomp_attr_set(f.get(), SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
    // This process may already run under the judge's filter, which keeps NO_NEW_PRIVS set; set it again in case not.
    ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    static const std::vector<std::string> none;
    Rules r{f.get(), none, why};
    r.add(SCMP_ACT_ERRNO(EPERM), "execve");
    r.add(SCMP_ACT_ERRNO(EPERM), "execveat");
    r.add(SCMP_ACT_ERRNO(EPERM), "fork");
    r.add(SCMP_ACT_ERRNO(EPERM), "vfork");
    const scmp_arg_cmp not_thread = SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0);
    r.add(SCMP_ACT_ERRNO(EPERM), "clone", 1, &not_thread);
    r.add(SCMP_ACT_ERRNO(ENOSYS), "clone3");
    if (r.ok && seccomp_load(f.get()) != 0) {
        *why = "seccomp_load failed";
        r.ok = false;
    }
    return r.ok;
}

}  // namespace wb::sandbox
