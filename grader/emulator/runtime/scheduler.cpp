// The block scheduler: runs the threads of one block, each on its own fiber, in the chosen order until each blocks at
// a barrier or a warp collective or exits; completes barriers; explains stalls (divergent barriers, deadlocks).
#include <emu/api.h>
#include <emu/intrinsics_detail.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "block_order.hpp"
#include "engine.hpp"
#include "memcheck.hpp"

namespace emu::rt {

thread_local bool g_in_kernel __attribute__((tls_model("initial-exec"))) = false;
Engine g_engine;

namespace {

// The order lives on the memory checker's read-only page (memcheck.hpp): set through set_order below only.
const Schedule& g_schedule = reinterpret_cast<const Schedule&>(mc::g_bounds.schedule);
const std::uint64_t& g_seed = mc::g_bounds.schedule_seed;
bool g_schedule_set_by_api = false;
void set_thread_order(Schedule s, std::uint64_t seed) {
    mc::BoundsWriter w;
    w->schedule = static_cast<int>(s);
    w->schedule_seed = seed;
}
std::uint64_t g_block_serial_counter = 0;

std::uint64_t splitmix(std::uint64_t& s) {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

bool same_site(const Wait& a, const Wait& b) {
    return a.line == b.line && (a.file == b.file || std::strcmp(a.file, b.file) == 0);
}

const char* barrier_name(int op) {
    switch (static_cast<emu::detail::BarrierOp>(op)) {
        case emu::detail::BarrierOp::count: return "__syncthreads_count()";
        case emu::detail::BarrierOp::and_: return "__syncthreads_and()";
        case emu::detail::BarrierOp::or_: return "__syncthreads_or()";
        case emu::detail::BarrierOp::grid: return "grid_group::sync()";
        default: return "__syncthreads()";
    }
}

}  // namespace
}  // namespace emu::rt

namespace emu::rt {
namespace {

// What every switch to thread `t` sets: the running thread, its threadIdx and its stack for the memory checker (the
// bounds start_block copied into the Thread from fiber_stack, whose lookup would cost each switch a call and a
// cache line).
inline void enter(Engine& e, Thread& t) {
    e.cur = &t;
    if (!t.started) t.stack_top = 0;  // fiber_main sets it once the fiber runs
    t.started = true;
    emu_builtin_thread_idx = uint3{t.info.thread.x, t.info.thread.y, t.info.thread.z};
    mc::g_stack_lo = t.stack_lo;
    // A kernel's reach on its stack ends at fiber_main's frame once the fiber runs (kernel_reach.cpp).
    mc::g_stack_hi = t.stack_top ? t.stack_top : t.stack_hi;
}

void run_thread(Engine& e, Thread& t) {
    enter(e, t);
    g_in_kernel = true;
    fiber_switch(e.sched_ctx, t.ctx);
    g_in_kernel = false;
}

// The caller's stack pointer at the call: this frame's address, less the return address and the saved frame pointer.
__attribute__((noinline)) std::uintptr_t caller_stack_pointer() {
    return reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0)) + 2 * sizeof(void*);
}

void fiber_main(void* arg) {
    Engine& e = g_engine;
    auto& t = *static_cast<Thread*>(arg);
    std::string what;
    bool threw = false;
    // This frame and the fiber's start above it are the emulator's, not the kernel's: a kernel's reach on its stack
    // (kernel_reach.cpp) ends here, so it cannot rewrite `t`, `what` or this frame's return.
    t.stack_top = caller_stack_pointer();
    mc::g_stack_hi = t.stack_top;
    // No exception may unwind past this frame: the stack below it belongs to no one.
    try {
        e.thunk(e.body);
#if defined(__x86_64__)
        // The kernel's frames saved this function's callee-saved registers, and a kernel may write its frames: take
        // nothing from those registers after the call (what is needed is reloaded from this frame or the engine).
        asm volatile("" ::: "rbx", "r12", "r13", "r14", "r15", "memory");
#endif
    } catch (const std::exception& ex) {
        threw = true;
        what = ex.what();
    } catch (...) {
        threw = true;
        what = "an exception that is not a std::exception";
    }
    if (threw) {
        fail_launch("exception",
                    "Kernel thread " + thread_coords(t) + " in block " + block_coords() + " of " + e.name +
                        " threw: " + what +
                        "\nHint: device code cannot throw; the emulator ends the launch as a GPU would end a faulting "
                        "kernel.",
                    cudaErrorLaunchFailure);
    }
    if (!t.copies.empty() && !e.aborted) complete_async_copies(t, ~0u);  // a kernel's end completes them
    t.state = TState::exited;
    --e.live;
    --e.runnable;
    e.warps[t.info.warp].exited |= 1u << t.info.lane;
    switch_away(t);
    std::abort();  // an exited fiber is never resumed
}

}  // namespace

void complete_barrier(Engine& e) {
    int count = 0;
    for (unsigned i = 0; i < e.nthreads; ++i) count += e.threads[i].wait.pred != 0;
    const auto op = static_cast<emu::detail::BarrierOp>(e.threads[0].wait.op);
    std::uint64_t result = 0;
    switch (op) {
        case emu::detail::BarrierOp::count: result = static_cast<unsigned>(count); break;
        case emu::detail::BarrierOp::and_: result = count == static_cast<int>(e.nthreads); break;
        case emu::detail::BarrierOp::or_: result = count != 0; break;
        default: break;
    }
    for (unsigned i = 0; i < e.nthreads; ++i) {
        e.threads[i].result = result;
        e.threads[i].state = TState::runnable;
    }
    e.at_barrier = 0;
    e.runnable = e.live;
    ++e.block_epoch;
    ++e.barrier_intervals;
    on_barrier();
    if (g_schedule == Schedule::random) make_order(e.order, e.nthreads);
}

namespace {

enum class Settled { completed, failed, at_grid_sync };

// Every live thread waits at a barrier: completes it, or reports why it cannot complete. A grid.sync() that the whole
// block has reached waits for the other blocks instead (at_grid_sync); the cooperative driver completes it.
Settled settle_barrier(Engine& e) {
    if (e.live == e.nthreads) {
        // The common case, without allocating: everyone is here, at one barrier.
        const Wait& w0 = e.threads[0].wait;
        unsigned i = 1;
        while (i < e.nthreads && same_site(e.threads[i].wait, w0)) ++i;
        if (i == e.nthreads) {
            if (static_cast<emu::detail::BarrierOp>(w0.op) == emu::detail::BarrierOp::grid)
                return Settled::at_grid_sync;
            complete_barrier(e);
            return Settled::completed;
        }
    }
    std::vector<unsigned> waiting, exited;
    for (unsigned i = 0; i < e.nthreads; ++i) {
        if (e.threads[i].state == TState::exited) exited.push_back(i);
        else waiting.push_back(i);
    }
    const Thread& first = e.threads[waiting.front()];
    if (!exited.empty()) {
        fail_launch("divergent-barrier",
                    "Barrier error detected. Divergent thread(s) in block\n"
                    "    at " +
                        std::string(barrier_name(first.wait.op)) + " in " + first.wait.file + ":" +
                        std::to_string(first.wait.line) + "\n" + "    waiting: thread(s) " + thread_set(waiting) +
                        " in block " + block_coords() + "\n" + "    exited without reaching it: thread(s) " +
                        thread_set(exited) + "\n" + "    kernel " + e.name +
                        "\nHint: every thread of the block must reach each __syncthreads(); an early `return` or a "
                        "barrier inside an `if` that not all threads take leaves the others waiting.",
                    cudaErrorLaunchFailure);
        return Settled::failed;
    }
    std::vector<std::vector<unsigned>> groups;  // threads per distinct barrier site, in order of first appearance
    std::vector<const Wait*> sites;
    for (unsigned i : waiting) {
        const Wait& w = e.threads[i].wait;
        std::size_t g = 0;
        while (g < sites.size() && !same_site(*sites[g], w)) ++g;
        if (g == sites.size()) {
            sites.push_back(&w);
            groups.emplace_back();
        }
        groups[g].push_back(i);
    }
    if (sites.size() > 1) {
        std::string msg = "Barrier error detected. Divergent thread(s) in block " + block_coords() + " of kernel " +
                          e.name + ": threads wait at different barriers";
        for (std::size_t g = 0; g < sites.size(); ++g)
            msg += "\n    at " + std::string(barrier_name(sites[g]->op)) + " in " + sites[g]->file + ":" +
                   std::to_string(sites[g]->line) + " by thread(s) " + thread_set(groups[g]);
        msg +=
            "\nHint: each __syncthreads() call is its own barrier; put one barrier where every thread reaches it, "
            "outside the branches.";
        fail_launch("divergent-barrier", msg, cudaErrorLaunchFailure);
        return Settled::failed;
    }
    complete_barrier(e);
    return Settled::completed;
}

// Nothing can run: explain who waits for whom, then end the launch.
void diagnose_stall(Engine& e) {
    if (diagnose_group_stall()) return;
    if (diagnose_phase_stall()) return;
    for (unsigned w = 0; w < e.warps.size(); ++w) {
        const WarpState& ws = e.warps[w];
        if (!ws.arrived) continue;
        unsigned lane0 = static_cast<unsigned>(__builtin_ctz(ws.arrived));
        const Thread& t = e.threads[w * 32 + lane0];
        const unsigned mask = t.wait.mask;
        // Lanes of the mask that will never join, grouped by why (exited, missing, or where they wait instead).
        std::vector<std::pair<std::string, unsigned>> missing;
        auto add_missing = [&missing](const std::string& why, unsigned lane) {
            for (auto& [text, lanes] : missing)
                if (text == why) {
                    lanes |= 1u << lane;
                    return;
                }
            missing.emplace_back(why, 1u << lane);
        };
        bool at_barrier = false;
        for (unsigned l = 0; l < 32; ++l) {
            if (!(mask >> l & 1u)) continue;
            if (!(ws.exists >> l & 1u)) {
                add_missing("do not exist (the block has " + std::to_string(e.nthreads) + " threads)", l);
                continue;
            }
            const Thread& o = e.threads[w * 32 + l];
            if (o.state == TState::exited) {
                add_missing("have exited", l);
            } else if (o.state == TState::barrier) {
                at_barrier = true;
                add_missing(std::string("wait at ") + barrier_name(o.wait.op) + " in " + o.wait.file + ":" +
                                std::to_string(o.wait.line),
                            l);
            } else if (o.state == TState::warp &&
                       (o.wait.coll != t.wait.coll || o.wait.op != t.wait.op || o.wait.mask != mask)) {
                add_missing("wait at " + wait_site(o), l);
            }
        }
        std::string missing_text;
        for (const auto& [why, lanes] : missing) missing_text += "\n    lanes " + lane_set(lanes) + " " + why;
        std::vector<unsigned> here;
        for (unsigned l = 0; l < 32; ++l)
            if ((ws.arrived >> l & 1u) && e.threads[w * 32 + l].wait.coll == t.wait.coll &&
                e.threads[w * 32 + l].wait.op == t.wait.op && e.threads[w * 32 + l].wait.mask == mask)
                here.push_back(w * 32 + l);
        std::string msg = std::string(at_barrier ? "Deadlock" : "Invalid warp collective") + " in block " +
                          block_coords() + " of kernel " + e.name + ":\n    thread(s) " + thread_set(here) + " (warp " +
                          std::to_string(w) + ") wait at " + wait_site(t) +
                          "\n    for lanes named in the mask that will never join it:" + missing_text;
        msg += at_barrier ? "\nHint: a warp collective inside a branch must be reached by every lane of its mask; "
                            "lanes that went on to __syncthreads() wait for the others, who wait for them."
                          : "\nHint: the mask must name exactly the lanes that execute this same call, and each of "
                            "them must reach it (no lane may have returned or be at another collective).";
        fail_launch(at_barrier ? "deadlock" : "shuffle-mask", msg, cudaErrorLaunchFailure);
        return;
    }
    // No warp collective pending and not every live thread at a barrier: cannot happen with the states above, but a
    // stall must never hang the grader, so describe everything.
    std::string msg = "Deadlock in block " + block_coords() + " of kernel " + e.name + ": no thread can continue";
    for (unsigned i = 0; i < e.nthreads; ++i) {
        const Thread& t = e.threads[i];
        if (t.state == TState::exited) continue;
        msg += "\n    thread " + thread_coords(t) + " waits at " + wait_site(t);
    }
    fail_launch("deadlock", msg, cudaErrorLaunchFailure);
}

}  // namespace

void start_block(Engine& e, Dim3 index) {
    e.block_serial = ++g_block_serial_counter;
    watchdog_block_begin();
    emu_builtin_block_idx = uint3{index.x, index.y, index.z};
    for (unsigned i = 0; i < e.nthreads; ++i) e.threads[i].info.block = index;
    on_block_begin();
    const unsigned n = e.nthreads;
    for (unsigned i = 0; i < n; ++i) {
        Thread& t = e.threads[i];
        t.state = TState::runnable;
        t.started = false;
        t.result = 0;
        t.wait = Wait{};
        t.copies.clear();
        t.barrier_copies.clear();
        t.committed = t.released = 0;
        fiber_poison(i);
        const FiberStack st = fiber_stack(i);
        t.stack_lo = reinterpret_cast<std::uintptr_t>(st.base);
        t.stack_hi = t.stack_lo + st.size;
        fiber_prepare(t.ctx, st, &fiber_main, &t);
    }
    for (unsigned w = 0; w < e.warps.size(); ++w) {
        const unsigned lanes = (w + 1) * 32 <= n ? 32 : n - w * 32;
        e.warps[w] = WarpState{};
        e.warps[w].exists = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
    }
    e.live = n;
    e.runnable = n;
    e.at_barrier = 0;
    e.acting = nullptr;  // a launch that faulted while a copy was made for another thread
    e.block_epoch = 0;
    e.barrier_intervals = 0;
    make_order(e.order, n);
}

BlockEnd drive_block(Engine& e) {
    const unsigned n = e.nthreads;
    for (;;) {
        // One pass: the first runnable thread starts it; each thread that blocks hands over to the next (switch_away).
        for (unsigned k = 0; k < n; ++k) {
            Thread& t = e.threads[e.order[k]];
            if (t.state != TState::runnable) continue;
            e.pos = k;
            run_thread(e, t);
            break;
        }
        if (e.aborted) return BlockEnd::aborted;
        if (e.live == 0) {
            land_leftover_barrier_copies();  // queued on a phase that never completed: the block's end lands them
            return e.aborted ? BlockEnd::aborted : BlockEnd::finished;
        }
        if (e.runnable > 0) continue;
        if (complete_activemasks()) continue;
        if (e.at_barrier == e.live) {
            const Settled s = settle_barrier(e);
            if (s == Settled::failed) return BlockEnd::aborted;
            if (s == Settled::at_grid_sync) return BlockEnd::at_grid_sync;
            continue;
        }
        diagnose_stall(e);
        return BlockEnd::aborted;
    }
}

void init_threads(Engine& e) {
    const Dim3 block = e.block;
    if (e.threads.size() < e.nthreads) e.threads.resize(e.nthreads);
    e.warps.resize((e.nthreads + 31) / 32);
    for (unsigned i = 0; i < e.nthreads; ++i) {
        ThreadInfo& ti = e.threads[i].info;
        ti.thread = Dim3{i % block.x, (i / block.x) % block.y, i / (block.x * block.y)};
        ti.linear = i;
        ti.warp = i / 32;
        ti.lane = i % 32;
    }
}

void make_order(std::vector<unsigned>& order, unsigned n) {
    order.resize(n);
    for (unsigned i = 0; i < n; ++i) order[i] = g_schedule == Schedule::reverse ? n - 1 - i : i;
    if (g_schedule != Schedule::random) return;
    // Fresh per block and per barrier interval, and the same for the same seed, block index and interval, so a run that
    // exposed a bug can be repeated.
    const Dim3 b = g_engine.threads.empty() ? Dim3{} : g_engine.threads[0].info.block;
    const std::uint64_t block = b.x + 65536ull * (b.y + 65536ull * b.z);
    std::uint64_t s = g_seed ^ (block * 0x9e3779b97f4a7c15ull) ^ (g_engine.barrier_intervals << 48);
    splitmix(s);
    for (unsigned i = n; i > 1; --i) {
        const unsigned j = static_cast<unsigned>(splitmix(s) % i);
        std::swap(order[i - 1], order[j]);
    }
}

void load_schedule_from_env() {
    static bool loaded = false;
    if (loaded || g_schedule_set_by_api) return;
    loaded = true;
    const char* v = std::getenv("EMU_SCHEDULE");
    if (!v || !*v || std::strcmp(v, "forward") == 0) return;
    if (std::strcmp(v, "reverse") == 0) {
        set_thread_order(Schedule::reverse, 0);
    } else if (std::strncmp(v, "random", 6) == 0) {
        set_thread_order(Schedule::random, v[6] == ':' ? std::strtoull(v + 7, nullptr, 0) : 0);
    } else {
        std::fprintf(stderr, "emu: EMU_SCHEDULE=%s not understood (forward, reverse or random:<seed>); using forward\n",
                     v);
    }
}

void block_current() {
    Engine& e = g_engine;
    Thread& t = *e.cur;
    --e.runnable;
    switch_away(t);
}

void switch_away(Thread& t) {
    Engine& e = g_engine;
    // This frame lies below the kernel's frames: the deepest point the thread is known to have reached.
    fiber_note_depth(t.info.linear, __builtin_frame_address(0));
    if (!e.aborted) {
        for (unsigned k = e.pos + 1; k < e.nthreads; ++k) {
            Thread& next = e.threads[e.order[k]];
            if (next.state != TState::runnable) continue;
            e.pos = k;
            enter(e, next);
            fiber_switch(t.ctx, next.ctx);
            return;
        }
    }
    e.pos = e.nthreads;
    fiber_switch(t.ctx, e.sched_ctx);
}

void fail_launch(const char* kind, const std::string& message, int cuda_error) {
    report(Diagnostic{kind, message, Severity::error});
    Engine& e = g_engine;
    e.aborted = true;
    e.abort_error = cuda_error;
    if (g_in_kernel) {
        fiber_note_depth(e.cur->info.linear, __builtin_frame_address(0));
        fiber_switch(e.cur->ctx, e.sched_ctx);
        std::abort();  // an aborted launch never resumes its fibers
    }
}

[[noreturn]] void abort_launch(int cuda_error) {
    Engine& e = g_engine;
    if (!g_in_kernel) {
        std::fprintf(stderr, "emu: abort_launch called outside a kernel thread\n");
        std::abort();
    }
    e.aborted = true;
    e.abort_error = cuda_error;
    fiber_note_depth(e.cur->info.linear, __builtin_frame_address(0));
    fiber_switch(e.cur->ctx, e.sched_ctx);
    std::abort();
}

int execute_launch(const char* name, emu::detail::KernelThunk thunk, void* body, Dim3 grid, Dim3 block,
                   std::size_t shared_bytes, bool cooperative) {
    Engine& e = g_engine;
    if (e.running) {
        std::fprintf(stderr, "emu: a kernel launched another kernel; dynamic parallelism is not emulated\n");
        return cudaErrorNotSupported;
    }
    load_schedule_from_env();
    install_fault_handlers();
    e.name = name;
    e.thunk = thunk;
    e.body = body;
    e.grid = grid;
    e.block = block;
    e.aborted = false;
    e.abort_error = 0;
    e.cooperative = cooperative;
    e.running = true;
    e.nthreads = block.x * block.y * block.z;
    init_threads(e);
    emu_builtin_block_dim = dim3(block.x, block.y, block.z);
    emu_builtin_grid_dim = dim3(grid.x, grid.y, grid.z);
    watchdog_launch_begin();
    on_launch_begin(shared_bytes);
    if (cooperative) {
        run_cooperative_grid(e);  // blocks wait for each other at grid.sync() (grid_barrier.cpp)
    } else {
        const BlockOrder order(grid);  // index order unless EMU_BLOCK_ORDER says otherwise (block_order.cpp)
        for (std::uint64_t k = 0; k < order.count() && !e.aborted; ++k) {
            start_block(e, order.at(k));
            drive_block(e);  // grid.sync() fails the launch outside a cooperative one: never at_grid_sync here
        }
    }
    on_launch_end();
    watchdog_launch_end();
    e.running = false;
    e.cur = nullptr;
    return e.aborted ? e.abort_error : 0;
}

const ThreadInfo& current_thread() { return (g_engine.acting ? g_engine.acting : g_engine.cur)->info; }
std::uint32_t block_epoch() { return g_engine.block_epoch; }
std::uint32_t warp_epoch(unsigned warp) { return warp < g_engine.warps.size() ? g_engine.warps[warp].epoch : 0; }
std::uint64_t block_serial() { return g_engine.block_serial; }
Dim3 block_dim() { return g_engine.block; }
Dim3 block_index() { return g_engine.threads.empty() ? Dim3{} : g_engine.threads[0].info.block; }
Dim3 grid_dim() { return g_engine.grid; }
const char* kernel_name() { return g_engine.name; }
bool launch_is_cooperative() { return g_engine.cooperative; }

std::string thread_coords(const Thread& t) {
    return "(" + std::to_string(t.info.thread.x) + "," + std::to_string(t.info.thread.y) + "," +
           std::to_string(t.info.thread.z) + ")";
}

std::string block_coords() {
    const Dim3 b = g_engine.threads.empty() ? Dim3{} : g_engine.threads[0].info.block;
    return "(" + std::to_string(b.x) + "," + std::to_string(b.y) + "," + std::to_string(b.z) + ")";
}

std::string thread_set(const std::vector<unsigned>& linear) {
    std::string out;
    std::size_t runs = 0, i = 0;
    while (i < linear.size()) {
        std::size_t j = i;
        while (j + 1 < linear.size() && linear[j + 1] == linear[j] + 1) ++j;
        if (runs == 8) {
            out += ", … (" + std::to_string(linear.size()) + " threads in all)";
            break;
        }
        if (!out.empty()) out += ", ";
        out += thread_coords(g_engine.threads[linear[i]]);
        if (j > i) out += "-" + thread_coords(g_engine.threads[linear[j]]);
        ++runs;
        i = j + 1;
    }
    return out;
}

std::string lane_set(unsigned lanes) {
    std::string out;
    for (unsigned l = 0; l < 32;) {
        if (!(lanes >> l & 1u)) {
            ++l;
            continue;
        }
        unsigned m = l;
        while (m + 1 < 32 && (lanes >> (m + 1) & 1u)) ++m;
        if (!out.empty()) out += ", ";
        out += std::to_string(l);
        if (m > l) out += "-" + std::to_string(m);
        l = m + 1;
    }
    return out;
}

std::string wait_site(const Thread& t) {
    char mask[16];
    std::snprintf(mask, sizeof mask, "0x%08x", t.wait.mask);
    std::string what;
    if (t.state == TState::barrier) {
        what = barrier_name(t.wait.op);
    } else if (t.state == TState::warp) {
        static const char* const shfl_names[] = {"__shfl_sync", "__shfl_up_sync", "__shfl_down_sync",
                                                 "__shfl_xor_sync"};
        static const char* const vote_names[] = {"__ballot_sync", "__any_sync", "__all_sync"};
        switch (t.wait.coll) {
            case Coll::shfl: what = shfl_names[t.wait.op & 3]; break;
            case Coll::vote: what = vote_names[t.wait.op % 3]; break;
            case Coll::syncwarp: what = "__syncwarp"; break;
            case Coll::reduce: what = reduce_name(t.wait.op); break;
            case Coll::match: what = t.wait.op ? "__match_all_sync" : "__match_any_sync"; break;
            case Coll::activemask:
                return std::string("__activemask() in ") + t.wait.file + ":" + std::to_string(t.wait.line);
        }
        what += std::string("(mask ") + mask + ")";
    } else if (t.state == TState::group || t.state == TState::phase) {
        what = t.wait.what;
    } else if (t.state == TState::exited) {
        return "(exited)";
    } else {
        return t.started ? "(runnable)" : "(not started)";
    }
    return what + " in " + t.wait.file + ":" + std::to_string(t.wait.line);
}

}  // namespace emu::rt

namespace emu {

void set_schedule(Schedule s, std::uint64_t seed) {
    rt::set_thread_order(s, seed);
    rt::g_schedule_set_by_api = true;
}

}  // namespace emu

namespace emu::detail {

int barrier(BarrierOp op, int pred, const char* file, int line) {
    using namespace emu::rt;
    if (!g_in_kernel) {
        std::fprintf(stderr, "emu: %s called outside a kernel (%s:%d)\n", "__syncthreads", file, line);
        std::abort();
    }
    Engine& e = g_engine;
    Thread& t = *e.cur;
    t.wait.op = static_cast<int>(op);
    t.wait.pred = pred;
    t.wait.file = file;
    t.wait.line = line;
    t.state = TState::barrier;
    ++e.at_barrier;
    block_current();
    return static_cast<int>(t.result);
}

void yield_thread() {
    using namespace emu::rt;
    if (!g_in_kernel) return;
    Engine& e = g_engine;
    // Stays runnable: the scheduler moves on to the next thread and comes back on its next pass.
    switch_away(*e.cur);
}

[[noreturn]] void trap(const char* file, int line) {
    using namespace emu::rt;
    if (!g_in_kernel) {
        std::fprintf(stderr, "emu: __trap() outside a kernel (%s:%d)\n", file, line);
        std::abort();
    }
    fail_launch("trap",
                std::string("__trap() called in ") + file + ":" + std::to_string(line) + " by thread " +
                    thread_coords(*g_engine.cur) + " in block " + block_coords(),
                cudaErrorLaunchFailure);
    std::abort();
}

}  // namespace emu::detail
