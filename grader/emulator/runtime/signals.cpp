// Faults and hangs inside kernels become explanations: a fault names the kernel's line and CUDA thread, a stack
// overflow is told apart by the fiber guard page, and a watchdog explains a kernel that runs far too long.
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "engine.hpp"

namespace emu::rt {
namespace {

constexpr int kExitCode = 1;
constexpr int kWatchdogSignal = SIGUSR2;

// The watchdog's clocks. A launch runs on one OS thread (the fibers switch on it), so the CPU time of that thread is
// what a kernel has spent: a spinning hang uses one CPU second a second on an idle machine, and is caught after the
// limit as before, while a correct kernel on an overloaded machine gets the limit's CPU time, however long that
// takes in wall time (a correct answer was once rejected at load 20 by a wall clock). The wall clock stays as a
// backstop for a hang that does not spin (a thread blocked in a call): EMU_WATCHDOG_WALL_SECONDS, by default
// kWallBackstop times each limit.
constexpr long long kWallBackstop = 3;
std::atomic<long long> g_block_start_ms{0};       // wall: when the current block began; 0 outside a launch
std::atomic<long long> g_launch_begin_ms{0};      // wall: when the launch began
std::atomic<long long> g_block_start_cpu_ms{0};   // the launch thread's CPU time when the current block began
std::atomic<long long> g_launch_begin_cpu_ms{0};  // … and when the launch began
std::atomic<bool> g_cpu_clock_ok{false};          // g_launch_clock is the launch thread's CPU clock
std::atomic<clockid_t> g_launch_clock{CLOCK_MONOTONIC};
std::atomic<bool> g_watchdog_fired{false};
std::atomic<bool> g_watchdog_pc_ready{false};
std::atomic<std::uintptr_t> g_watchdog_pc{0};
// Whether a kernel thread was running on the launch's OS thread when the signal stopped it: g_in_kernel is per OS
// thread, and the watchdog's report is written on the watchdog's own thread.
std::atomic<bool> g_watchdog_in_kernel{false};
pthread_t g_launch_thread;

long long now_ms() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

// Milliseconds of a clock; -1 when it cannot be read (the thread is gone).
long long clock_ms(clockid_t clock) {
    timespec ts{};
    if (clock_gettime(clock, &ts) != 0) return -1;
    return static_cast<long long>(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

const void* context_pc(void* uctx) {
#if defined(__x86_64__)
    return reinterpret_cast<const void*>(static_cast<ucontext_t*>(uctx)->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
    return reinterpret_cast<const void*>(static_cast<ucontext_t*>(uctx)->uc_mcontext.pc);
#else
    (void)uctx;
    return nullptr;
#endif
}

const void* context_sp(void* uctx) {
#if defined(__x86_64__)
    return reinterpret_cast<const void*>(static_cast<ucontext_t*>(uctx)->uc_mcontext.gregs[REG_RSP]);
#elif defined(__aarch64__)
    return reinterpret_cast<const void*>(static_cast<ucontext_t*>(uctx)->uc_mcontext.sp);
#else
    (void)uctx;
    return nullptr;
#endif
}

std::string who() {
    const Engine& e = g_engine;
    if (!e.cur) return "kernel " + std::string(e.name);
    return "thread " + thread_coords(*e.cur) + " in block " + block_coords() + " of kernel " + e.name;
}

void on_fault(int sig, siginfo_t* si, void* uctx) {
    if (!g_in_kernel) {
        // Not ours: let the default action happen when the faulting instruction runs again.
        signal(sig, SIG_DFL);
        return;
    }
    const void* pc = context_pc(uctx);
    const void* sp = context_sp(uctx);
    unsigned stack = 0;
    const FiberStack own = fiber_stack(g_engine.cur->info.linear);
    const bool overflow =
        fiber_guard_hit(si->si_addr, &stack) || (sig == SIGSEGV && static_cast<const char*>(sp) < own.base &&
                                                 static_cast<const char*>(sp) > own.base - (1 << 20));
    std::string msg;
    const char* kind = "fault";
    if (overflow) {
        kind = "stack-overflow";
        msg = "Stack overflow in " + who() + "\n    at " + symbolize_exact(pc) + "\n    each emulated thread has " +
              std::to_string(kFiberStackBytes / 1024) +
              " KiB of stack\nHint: deep or unbounded recursion, or a large local array; on a GPU this is a "
              "cudaErrorIllegalAddress or a stack overflow error.";
    } else if (sig == SIGFPE) {
        msg = "Arithmetic fault (SIGFPE: integer division by zero or overflow) in " + who() + "\n    at " +
              symbolize_exact(pc) +
              "\nHint: a GPU does not trap here but returns an unspecified value; either way the result is wrong.";
    } else {
        char addr[32];
        std::snprintf(addr, sizeof addr, "%p", si->si_addr);
        msg = std::string(sig == SIGBUS ? "Bus error" : "Invalid memory access") + " at address " + addr + " in " +
              who() + "\n    at " + symbolize_exact(pc) +
              "\nHint: the address is outside every allocation the emulator knows (a host pointer passed to a kernel, "
              "a null or freed pointer, or an index far out of range). On a GPU: cudaErrorIllegalAddress.";
    }
    report(Diagnostic{kind, msg, Severity::error});
    _exit(kExitCode);
}

void on_watchdog_signal(int, siginfo_t*, void* uctx) {
    if (!g_watchdog_fired.load()) return;
    g_watchdog_pc.store(reinterpret_cast<std::uintptr_t>(context_pc(uctx)));
    g_watchdog_in_kernel.store(g_in_kernel);
    g_watchdog_pc_ready.store(true);
    // Hold this thread still while the watchdog reads the scheduler's state and ends the process.
    for (;;) pause();
}

// Which clock ran out: the launch thread's CPU time, the wall clock's backstop, or the wall clock alone (no CPU clock).
enum class Clock { cpu, backstop, wall };

void watchdog_report(long long ran_ms, bool whole_launch, Clock clock) {
    Engine& e = g_engine;
    const std::string which = whole_launch ? "launch" : "block";
    std::string msg = "Kernel " + std::string(e.name) + " still running after " + std::to_string(ran_ms / 1000) + " s" +
                      (whole_launch ? " in all, now in block " : " in block ") + block_coords() + " (" +
                      (clock == Clock::backstop ? "EMU_WATCHDOG_WALL_SECONDS"
                       : whole_launch           ? "EMU_WATCHDOG_LAUNCH_SECONDS"
                                                : "EMU_WATCHDOG_SECONDS") +
                      ": " +
                      (clock == Clock::cpu ? "the CPU time one " + which + " may run"
                       : clock == Clock::backstop
                           ? "the wall-clock time one " + which + " may run, its threads waiting rather than computing"
                           : "the time one " + which + " may run") +
                      "); unfinished threads:";
    const void* pc = reinterpret_cast<const void*>(g_watchdog_pc.load());
    const bool in_kernel = g_watchdog_in_kernel.load();
    if (in_kernel && e.cur && pc)
        msg += "\n    running: thread " + thread_coords(*e.cur) + " at " + symbolize_exact(pc);
    std::map<std::string, std::vector<unsigned>> by_site;
    for (unsigned i = 0; i < e.nthreads && i < e.threads.size(); ++i) {
        const Thread& t = e.threads[i];
        if (t.state == TState::exited || (in_kernel && &t == e.cur)) continue;
        by_site[wait_site(t)].push_back(i);
    }
    for (const auto& [site, ids] : by_site) msg += "\n    thread(s) " + thread_set(ids) + ": " + site;
    msg += whole_launch ? "\nHint: an endless loop, or far more work than the problem needs (a loop every thread "
                          "runs over the whole row, say)."
                        : "\nHint: an endless loop (a loop bound that never changes, or a spin-wait for a value "
                          "that no thread of this block will write).";
    report(Diagnostic{"hang", msg, Severity::error});
    _exit(kExitCode);
}

struct Overrun {
    bool over = false, whole_launch = false;
    Clock clock = Clock::cpu;
    long long ran_ms = 0;
};

// Whether the launch or its current block has run past a limit, on the launch thread's CPU clock or on the wall
// clock's backstop (wall_ms; <= 0: kWallBackstop times the limit).
Overrun overrun(long long block_ms, long long launch_ms, long long wall_ms) {
    Overrun o;
    const long long start = g_block_start_ms.load(), begin = g_launch_begin_ms.load();
    const long long cpu_start = g_block_start_cpu_ms.load(), cpu_begin = g_launch_begin_cpu_ms.load();
    if (start == 0 || begin == 0) return o;
    const long long wall = now_ms();
    const long long cpu = g_cpu_clock_ok.load() ? clock_ms(g_launch_clock.load()) : -1;
    // `limit` in CPU time, or the backstop in wall time (the limit itself in wall time without a CPU clock).
    auto past = [&](long long limit, long long cpu_since, long long wall_since, bool launch) {
        if (limit <= 0 || o.over) return;
        const long long backstop = wall_ms > 0 ? wall_ms : kWallBackstop * limit;
        if (cpu >= 0 && cpu - cpu_since >= limit) o = Overrun{true, launch, Clock::cpu, cpu - cpu_since};
        else if (wall - wall_since >= (cpu >= 0 ? backstop : limit))
            o = Overrun{true, launch, cpu >= 0 ? Clock::backstop : Clock::wall, wall - wall_since};
    };
    past(launch_ms, cpu_begin, begin, true);
    past(block_ms, cpu_start, start, false);
    // A block that began while this was read is not judged by the clocks of the one before it.
    if (o.over && (g_block_start_ms.load() != start || g_launch_begin_ms.load() != begin)) return Overrun{};
    return o;
}

// Either limit may be off (<= 0): a block that runs past block_ms is stuck; a launch that runs past launch_ms in all
// does far too much work, however many of its blocks finish (a grader's limit: a program's long grid is not a hang).
void watchdog_loop(long long block_ms, long long launch_ms, long long wall_ms) {
    for (;;) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        const Overrun o = overrun(block_ms, launch_ms, wall_ms);
        if (!o.over) continue;
        g_watchdog_fired.store(true);
        pthread_kill(g_launch_thread, kWatchdogSignal);
        for (int i = 0; i < 40 && !g_watchdog_pc_ready.load(); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        watchdog_report(o.ran_ms, o.whole_launch, o.clock);
    }
}

long long limit_ms(const char* name, long long default_ms) {
    const char* v = std::getenv(name);
    if (!v || !*v) return default_ms;
    return static_cast<long long>(std::strtod(v, nullptr) * 1000.0);
}

}  // namespace

void install_fault_handlers() {
    // The alternate stack is per OS thread: set it on each thread that launches (normally just one).
    thread_local bool altstack_done = false;
    if (!altstack_done) {
        altstack_done = true;
        static thread_local std::vector<char> alt(1 << 16);
        stack_t ss{};
        ss.ss_sp = alt.data();
        ss.ss_size = alt.size();
        sigaltstack(&ss, nullptr);
    }
    static bool installed = false;
    if (installed) return;
    installed = true;
    struct sigaction sa {};
    sa.sa_sigaction = &on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, nullptr);
    sigaction(SIGBUS, &sa, nullptr);
    sigaction(SIGFPE, &sa, nullptr);
    struct sigaction wd {};
    wd.sa_sigaction = &on_watchdog_signal;
    wd.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&wd.sa_mask);
    sigaction(kWatchdogSignal, &wd, nullptr);
}

void watchdog_launch_begin() {
    static const long long block_limit = limit_ms("EMU_WATCHDOG_SECONDS", 20000);
    static const long long launch_limit = limit_ms("EMU_WATCHDOG_LAUNCH_SECONDS", 0);
    static const long long wall_limit = limit_ms("EMU_WATCHDOG_WALL_SECONDS", 0);
    static bool started = false;
    if (block_limit <= 0 && launch_limit <= 0) return;
    g_launch_thread = pthread_self();
    clockid_t clock{};
    const bool cpu_clock = pthread_getcpuclockid(g_launch_thread, &clock) == 0 && clock_ms(clock) >= 0;
    g_launch_clock.store(clock);
    g_cpu_clock_ok.store(cpu_clock);
    const long long cpu = cpu_clock ? clock_ms(CLOCK_THREAD_CPUTIME_ID) : 0;
    g_launch_begin_cpu_ms.store(cpu);
    g_block_start_cpu_ms.store(cpu);
    const long long now = now_ms();
    g_launch_begin_ms.store(now);
    g_block_start_ms.store(now);
    if (!started) {
        started = true;
        std::thread(watchdog_loop, block_limit, launch_limit, wall_limit).detach();
    }
}

// The clocks restart with each block: a launch of many blocks that all finish is progressing however long it runs
// in all (a public sample's 10-million-thread grid takes minutes here); a block that runs past the limit is stuck.
// Called on the launch thread, so its own CPU clock is the one the watchdog reads.
void watchdog_block_begin() {
    if (g_block_start_ms.load() == 0) return;
    if (g_cpu_clock_ok.load()) g_block_start_cpu_ms.store(clock_ms(CLOCK_THREAD_CPUTIME_ID));
    g_block_start_ms.store(now_ms());
}

void watchdog_launch_end() {
    g_block_start_ms.store(0);
    g_launch_begin_ms.store(0);
}

}  // namespace emu::rt
