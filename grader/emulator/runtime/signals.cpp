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

std::atomic<long long> g_launch_start_ms{0};
std::atomic<bool> g_watchdog_fired{false};
std::atomic<bool> g_watchdog_pc_ready{false};
std::atomic<std::uintptr_t> g_watchdog_pc{0};
pthread_t g_launch_thread;

long long now_ms() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
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
    g_watchdog_pc_ready.store(true);
    // Hold this thread still while the watchdog reads the scheduler's state and ends the process.
    for (;;) pause();
}

void watchdog_report(long long ran_ms) {
    Engine& e = g_engine;
    std::string msg = "Kernel " + std::string(e.name) + " still running after " + std::to_string(ran_ms / 1000) +
                      " s in block " + block_coords() +
                      " (EMU_WATCHDOG_SECONDS: the time one block may run); unfinished threads:";
    const void* pc = reinterpret_cast<const void*>(g_watchdog_pc.load());
    if (g_in_kernel && e.cur && pc)
        msg += "\n    running: thread " + thread_coords(*e.cur) + " at " + symbolize_exact(pc);
    std::map<std::string, std::vector<unsigned>> by_site;
    for (unsigned i = 0; i < e.nthreads && i < e.threads.size(); ++i) {
        const Thread& t = e.threads[i];
        if (t.state == TState::exited || (g_in_kernel && &t == e.cur)) continue;
        by_site[wait_site(t)].push_back(i);
    }
    for (const auto& [site, ids] : by_site) msg += "\n    thread(s) " + thread_set(ids) + ": " + site;
    msg +=
        "\nHint: an endless loop (a loop bound that never changes, or a spin-wait for a value that no thread of "
        "this block will write).";
    report(Diagnostic{"hang", msg, Severity::error});
    _exit(kExitCode);
}

void watchdog_loop(long long limit_ms) {
    for (;;) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        const long long start = g_launch_start_ms.load();
        if (start == 0) continue;
        const long long ran = now_ms() - start;
        if (ran < limit_ms) continue;
        g_watchdog_fired.store(true);
        pthread_kill(g_launch_thread, kWatchdogSignal);
        for (int i = 0; i < 40 && !g_watchdog_pc_ready.load(); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        watchdog_report(ran);
    }
}

long long watchdog_limit_ms() {
    const char* v = std::getenv("EMU_WATCHDOG_SECONDS");
    if (!v || !*v) return 20000;
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
    static const long long limit = watchdog_limit_ms();
    static bool started = false;
    if (limit <= 0) return;
    g_launch_thread = pthread_self();
    if (!started) {
        started = true;
        std::thread(watchdog_loop, limit).detach();
    }
    g_launch_start_ms.store(now_ms());
}

// The clock restarts with each block: a launch of many blocks that all finish is progressing however long it runs
// in all (a public sample's 10-million-thread grid takes minutes here); a block that runs past the limit is stuck.
void watchdog_block_begin() {
    if (g_launch_start_ms.load() != 0) g_launch_start_ms.store(now_ms());
}

void watchdog_launch_end() { g_launch_start_ms.store(0); }

}  // namespace emu::rt
