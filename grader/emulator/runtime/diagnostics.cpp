// Diagnostics: printed at once to stderr in compute-sanitizer's layout and kept for emu::take_diagnostics().
// Code addresses become file:line through addr2line, run as a long-lived helper per object file (started on the first
// report that needs it: symbolizing costs nothing until something goes wrong).
#include <emu/api.h>
#include <link.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "engine.hpp"

extern char** environ;

namespace emu::rt {
namespace {

std::mutex g_mutex;
std::vector<std::string> g_diagnostics;

struct Symbolizer {
    pid_t pid = -1;
    FILE* to = nullptr;
    FILE* from = nullptr;
};

struct ObjectHit {
    std::string path;
    std::uintptr_t base = 0;
    bool found = false;
};

// The object file containing `pc` and its load base (addresses in the file are pc - base).
ObjectHit locate(const void* pc) {
    struct Ctx {
        std::uintptr_t pc;
        ObjectHit hit;
    } ctx{reinterpret_cast<std::uintptr_t>(pc), {}};
    dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void* data) -> int {
            auto* c = static_cast<Ctx*>(data);
            for (int i = 0; i < info->dlpi_phnum; ++i) {
                const ElfW(Phdr)& ph = info->dlpi_phdr[i];
                if (ph.p_type != PT_LOAD) continue;
                const std::uintptr_t lo = info->dlpi_addr + ph.p_vaddr;
                if (c->pc >= lo && c->pc < lo + ph.p_memsz) {
                    c->hit.found = true;
                    c->hit.base = info->dlpi_addr;
                    c->hit.path = info->dlpi_name ? info->dlpi_name : "";
                    return 1;
                }
            }
            return 0;
        },
        &ctx);
    if (ctx.hit.found && ctx.hit.path.empty()) {
        char buf[PATH_MAX];
        const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
        ctx.hit.path = n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : "";
    }
    return ctx.hit;
}

Symbolizer* symbolizer_for(const std::string& path) {
    static std::map<std::string, Symbolizer> helpers;
    auto it = helpers.find(path);
    if (it != helpers.end()) return it->second.pid > 0 ? &it->second : nullptr;
    Symbolizer& s = helpers[path];
    // Only a file addr2line can open: the kernel's vDSO (where a thread spinning on clock64() often is) is named
    // "linux-vdso.so.1" and has no file, and addr2line would exit at once.
    if (path.empty() || path[0] != '/' || access(path.c_str(), R_OK) != 0) return nullptr;
    int in[2], out[2];
    if (pipe(in) != 0) return nullptr;
    if (pipe(out) != 0) {
        close(in[0]);
        close(in[1]);
        return nullptr;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_addclose(&fa, in[1]);
    posix_spawn_file_actions_addclose(&fa, out[0]);
    std::string exe = path;
    char a0[] = "addr2line", a1[] = "-f", a2[] = "-C", a3[] = "-e";
    char* argv[] = {a0, a1, a2, a3, exe.data(), nullptr};
    pid_t pid = -1;
    const int rc = posix_spawnp(&pid, "addr2line", &fa, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(in[0]);
    close(out[1]);
    if (rc != 0) {
        close(in[1]);
        close(out[0]);
        return nullptr;
    }
    s.pid = pid;
    s.to = fdopen(in[1], "w");
    s.from = fdopen(out[0], "r");
    return &s;
}

// One request to a helper. A helper that has exited turns the write into SIGPIPE, which would end the very program
// being diagnosed before its report is printed: the signal is held back on this thread for the write, and the one the
// write raised is taken back. The helper is then marked dead.
bool send_request(Symbolizer& s, unsigned long long offset) {
    sigset_t pipe_only, old;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_only, &old);
    const bool ok = std::fprintf(s.to, "0x%llx\n", offset) > 0 && std::fflush(s.to) == 0;
    if (!ok && errno == EPIPE) {
        const timespec now{0, 0};
        sigtimedwait(&pipe_only, nullptr, &now);
    }
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    if (!ok) s.pid = -1;
    return ok;
}

bool read_line(FILE* f, std::string& line) {
    line.clear();
    int c;
    while ((c = std::fgetc(f)) != EOF && c != '\n') line += static_cast<char>(c);
    return c != EOF || !line.empty();
}

struct Location {
    std::string function;
    std::string file_line;
};

// Looks up an exact instruction address. Cached: the same few lines are reported again and again.
Location lookup(const void* pc) {
    static std::map<const void*, Location> cache;
    auto it = cache.find(pc);
    if (it != cache.end()) return it->second;
    Location loc;
    const ObjectHit obj = locate(pc);
    if (obj.found) {
        Symbolizer* s = symbolizer_for(obj.path);
        if (s && send_request(*s, reinterpret_cast<std::uintptr_t>(pc) - obj.base)) {
            read_line(s->from, loc.function);
            read_line(s->from, loc.file_line);
            const auto disc = loc.file_line.find(" (discriminator");
            if (disc != std::string::npos) loc.file_line.erase(disc);
            if (loc.function == "??") loc.function.clear();
            if (loc.file_line.rfind("??", 0) == 0 || loc.file_line.empty()) loc.file_line.clear();
        }
    }
    if (loc.file_line.empty()) {
        // Without addr2line (a sandbox that forbids starting it) the offset inside the object lets a trusted process
        // outside name the line (grader/cli/grade/code_lines.hpp).
        char buf[96];
        if (obj.found)
            std::snprintf(buf, sizeof buf, "pc %p (+0x%llx)", pc,
                          static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(pc) - obj.base));
        else std::snprintf(buf, sizeof buf, "pc %p", pc);
        loc.file_line = loc.function.empty() ? std::string(buf) : loc.function + " (" + buf + ", no line information)";
    }
    cache[pc] = loc;
    return loc;
}

std::string prefix_lines(const std::string& message) {
    std::string out;
    std::size_t start = 0;
    while (start <= message.size()) {
        std::size_t end = message.find('\n', start);
        if (end == std::string::npos) end = message.size();
        const std::string line = message.substr(start, end - start);
        out += line.rfind("=========", 0) == 0 ? line : "========= " + line;
        out += '\n';
        start = end + 1;
    }
    return out;
}

}  // namespace

std::string symbolize_exact(const void* pc) {
    std::lock_guard<std::mutex> lock(g_mutex);
    return lookup(pc).file_line;
}

// A return address points after the call; the call itself is one byte earlier at least.
std::string symbolize(const void* pc) { return symbolize_exact(static_cast<const char*>(pc) - 1); }

std::string function_name(const void* pc) {
    std::lock_guard<std::mutex> lock(g_mutex);
    return lookup(pc).function;
}

void report(Diagnostic d) {
    std::string text = prefix_lines((d.severity == Severity::warning ? "Warning: " : "Error: ") + d.message);
    text += "=========\n";
    std::fputs(text.c_str(), stderr);
    std::fflush(stderr);
    std::lock_guard<std::mutex> lock(g_mutex);
    g_diagnostics.push_back("[" + d.kind + "] " + d.message);
}

}  // namespace emu::rt

namespace emu {

std::vector<std::string> take_diagnostics() {
    std::lock_guard<std::mutex> lock(rt::g_mutex);
    std::vector<std::string> out;
    out.swap(rt::g_diagnostics);
    return out;
}

}  // namespace emu
