// cuda::barrier at block scope and the stage barriers of block pipelines (include/emu/block_barrier.hpp): arrivals
// count down a phase; the last one completes it, which releases the threads waiting for that phase and counts, for
// the memory checker, as a block-wide barrier. Waiting threads block like threads at __syncthreads(), so a phase that
// can never complete (an arrival missing because a thread exited, waits at __syncthreads() or waits for another
// phase) is explained when the block stalls.
#include <emu/block_barrier.hpp>
#include <emu/intrinsics_detail.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "engine.hpp"
#include "memcheck.hpp"

namespace emu::rt {
namespace {

using emu::detail::BarrierState;

Thread& running(const char* what, const char* file, int line) {
    if (!g_in_kernel) {
        std::fprintf(stderr, "emu: %s called outside a kernel (%s:%d)\n", what, file, line);
        std::abort();
    }
    return *g_engine.cur;
}

std::string at(const char* file, int line) { return std::string(file) + ":" + std::to_string(line); }

// The use of a barrier by the running thread, told to the memory checker at the caller's line: an atomic access
// of the object (before any write it is a read of uninitialized shared memory), which races with the init when no
// barrier separates them and another thread made the init.
void touch(BarrierState* b, const void* pc, const char* what, const char* file, int line) {
    Engine& e = g_engine;
    const auto a = reinterpret_cast<std::uintptr_t>(b);
    if (a - mc::g_arena_lo >= mc::g_arena_hi - mc::g_arena_lo)
        fail_launch(
            "barrier",
            std::string(what) + " at " + at(file, line) + " by thread " + thread_coords(*e.cur) + " in block " +
                block_coords() + " of kernel " + e.name +
                "\n    the barrier is not in __shared__ memory; a block-scoped cuda::barrier (an mbarrier) must "
                "be (declare it __shared__)",
            cudaErrorLaunchFailure);
    mc::access(b, sizeof *b, mc::kAtomic | mc::kWrite, pc);
    const ThreadInfo& me = e.cur->info;
    if (b->block == e.block_serial && b->init_epoch == e.block_epoch && b->init_thread != me.linear)
        mc::note_race(mc::Race{mc::Hazard::raw,
                               false,
                               false,
                               b->init_pc,
                               b->init_thread,
                               {},
                               false,
                               pc,
                               true,
                               b->init_thread / 32 == me.warp,
                               a - mc::g_arena_lo,
                               sizeof *b});
}

// The barrier was set up by init() in this block execution; otherwise the launch fails, naming the call.
void require_init(const BarrierState* b, const char* what, const char* file, int line) {
    Engine& e = g_engine;
    if (b->block == e.block_serial) return;
    fail_launch("barrier",
                std::string(what) + " at " + at(file, line) + " by thread " + thread_coords(*e.cur) + " in block " +
                    block_coords() + " of kernel " + e.name +
                    "\n    the barrier was not initialized in this block: no init(&bar, count) ran before this call"
                    "\nHint: one thread calls init(&bar, blockDim.x) (e.g. if (threadIdx.x == 0)), then a "
                    "__syncthreads() before any thread uses the barrier; shared memory starts undefined in every "
                    "block.",
                cudaErrorLaunchFailure);
}

// The checker models block-wide barriers only: a phase counts as one for it (accesses of threads the barrier does
// not count are then taken as ordered too: a race can be missed, none is invented).
void order_block() {
    ++g_engine.block_epoch;
    on_barrier();
}

void complete_phase(BarrierState* b, emu::detail::BarrierCompletion complete, void* obj) {
    Engine& e = g_engine;
    // The copies queued on this phase land now, each checked as its own thread's write at its memcpy_async's line: a
    // thread that reads them before waiting for the phase (even its own) reads what was there before.
    for (unsigned i = 0; i < e.nthreads; ++i) {
        Thread& t = e.threads[i];
        if (t.barrier_copies.empty()) continue;
        e.acting = &t;
        complete_barrier_copies(t, b);
        e.acting = nullptr;
    }
    order_block();  // every arrival's earlier accesses before what follows the phase
    if (complete) {
        complete(obj);  // before anyone waiting runs, as CUDA runs it before releasing the phase
        order_block();  // and the completion's accesses before the waiters'
    }
    ++b->phase;
    b->expected = b->next_expected;
    b->pending = b->expected;
    ++e.barrier_intervals;
    for (unsigned i = 0; i < e.nthreads; ++i) {
        Thread& t = e.threads[i];
        if (t.state == TState::phase && t.wait.object == b && t.wait.phase < b->phase) {
            t.state = TState::runnable;
            ++e.runnable;
        }
    }
}

}  // namespace

void complete_barrier_copies(Thread& t, const void* barrier) {
    // Completing a copy may fault (out of bounds): the launch then ends there, with nothing left to restore.
    std::size_t kept = 0;
    for (std::size_t i = 0; i < t.barrier_copies.size(); ++i) {
        const BarrierCopy bc = t.barrier_copies[i];
        if (barrier && bc.barrier != barrier) {
            t.barrier_copies[kept++] = bc;
            continue;
        }
        const AsyncCopy& c = bc.copy;
        // Read, then write, each checked at the memcpy_async's line; a fault ends the launch there.
        if (c.src) mc::access(c.src, c.bytes, 0, c.pc);
        mc::access(c.dst, c.bytes, mc::kWrite, c.pc);
        if (c.src) std::memmove(c.dst, c.src, c.bytes);
        else std::memset(c.dst, 0, c.bytes);
    }
    t.barrier_copies.resize(kept);
}

void land_leftover_barrier_copies() {
    Engine& e = g_engine;
    for (unsigned i = 0; i < e.nthreads; ++i) {
        Thread& t = e.threads[i];
        if (t.barrier_copies.empty()) continue;
        e.acting = &t;
        complete_barrier_copies(t, nullptr);
        e.acting = nullptr;
    }
}

bool diagnose_phase_stall() {
    Engine& e = g_engine;
    const Thread* w = nullptr;
    for (unsigned i = 0; i < e.nthreads && !w; ++i)
        if (e.threads[i].state == TState::phase) w = &e.threads[i];
    if (!w) return false;
    const auto* b = static_cast<const BarrierState*>(w->wait.object);
    std::vector<unsigned> here, exited, at_barrier, elsewhere;
    std::string elsewhere_text;
    for (unsigned i = 0; i < e.nthreads; ++i) {
        const Thread& t = e.threads[i];
        if (t.state == TState::phase && t.wait.object == b && t.wait.phase == w->wait.phase) here.push_back(i);
        else if (t.state == TState::exited) exited.push_back(i);
        else if (t.state == TState::barrier) at_barrier.push_back(i);
        else {
            elsewhere.push_back(i);
            if (elsewhere_text.empty()) elsewhere_text = wait_site(t);
        }
    }
    const unsigned arrived = b->expected - b->pending;
    std::string msg = "Deadlock at a barrier phase in block " + block_coords() + " of kernel " + e.name +
                      ":\n    thread(s) " + thread_set(here) + " wait at " + wait_site(*w) + " for phase " +
                      std::to_string(w->wait.phase) + " of the barrier initialized at " +
                      at(b->init_file, b->init_line) + " for " + std::to_string(b->expected) + " arrivals; " +
                      std::to_string(arrived) + " arrived, " + std::to_string(b->pending) + " missing";
    if (!exited.empty()) msg += "\n    exited: thread(s) " + thread_set(exited);
    if (!at_barrier.empty())
        msg += "\n    wait at " + wait_site(e.threads[at_barrier.front()]) + " instead: thread(s) " +
               thread_set(at_barrier);
    if (!elsewhere.empty()) msg += "\n    wait at " + elsewhere_text + " instead: thread(s) " + thread_set(elsewhere);
    msg +=
        "\nHint: each phase completes only when as many arrivals as init() counted have been made (arrive(), "
        "arrive_and_wait(), a pipeline's producer_commit() or consumer_release()); a thread that returns early or "
        "skips its arrival in a branch leaves the others waiting, as a GPU would hang.";
    fail_launch("deadlock", msg, cudaErrorLaunchFailure);
    return true;
}

}  // namespace emu::rt

namespace emu::detail {

using namespace emu::rt;

void barrier_init(BarrierState* b, std::size_t object_bytes, std::ptrdiff_t expected, const void* pc, const char* file,
                  int line) {
    Thread& t = running("init(cuda::barrier*)", file, line);
    Engine& e = g_engine;
    mc::access(b, object_bytes, mc::kWrite, pc);  // a plain write of the object, as CUDA's mbarrier.init is
    if (expected <= 0 || expected > (1 << 20) - 1)
        fail_launch("barrier",
                    "init(&bar, " + std::to_string(expected) + ") at " + at(file, line) + " by thread " +
                        thread_coords(t) + " in block " + block_coords() + " of kernel " + e.name +
                        "\n    the expected count must be between 1 and cuda::barrier::max() (1048575)",
                    cudaErrorLaunchFailure);
    b->block = e.block_serial;
    b->expected = b->next_expected = b->pending = static_cast<std::uint32_t>(expected);
    b->phase = 0;
    b->init_file = file;
    b->init_line = line;
    b->init_pc = pc;
    b->init_thread = t.info.linear;
    b->init_epoch = e.block_epoch;
}

std::uint32_t barrier_arrive(BarrierState* b, std::ptrdiff_t n, bool drop, BarrierCompletion complete, void* obj,
                             const void* pc, const char* what, const char* file, int line) {
    Thread& t = running(what, file, line);
    touch(b, pc, what, file, line);
    require_init(b, what, file, line);
    if (n <= 0 || static_cast<std::uint64_t>(n) > b->pending)
        fail_launch("barrier",
                    std::string(what) + " at " + at(file, line) + " by thread " + thread_coords(t) + " in block " +
                        block_coords() + " of kernel " + g_engine.name + "\n    " + std::to_string(n) +
                        " arrival(s) where the current phase (" + std::to_string(b->phase) + ") expects " +
                        std::to_string(b->pending) + " more (init() at " + at(b->init_file, b->init_line) +
                        " counted " + std::to_string(b->expected) +
                        ")\nHint: a thread arrives once per phase; more arrivals than init() counted is undefined "
                        "behaviour on a GPU.",
                    cudaErrorLaunchFailure);
    const std::uint32_t token = b->phase;
    if (drop) --b->next_expected;
    b->pending -= static_cast<std::uint32_t>(n);
    if (b->pending == 0) complete_phase(b, complete, obj);
    return token;
}

void barrier_wait(BarrierState* b, std::uint32_t phase, const void* pc, const char* what, const char* file, int line) {
    Thread& t = running(what, file, line);
    touch(b, pc, what, file, line);
    require_init(b, what, file, line);
    if (b->phase > phase) return;
    if (b->phase < phase)
        fail_launch("barrier",
                    std::string(what) + " at " + at(file, line) + " by thread " + thread_coords(t) + " in block " +
                        block_coords() + " of kernel " + g_engine.name + "\n    waits for phase " +
                        std::to_string(phase) + ", but the barrier is in phase " + std::to_string(b->phase) +
                        " (a token of another barrier, or one kept from before its init())",
                    cudaErrorLaunchFailure);
    t.wait = Wait{};
    t.wait.what = what;
    t.wait.file = file;
    t.wait.line = line;
    t.wait.object = b;
    t.wait.phase = phase;
    t.state = TState::phase;
    block_current();
}

bool barrier_test(BarrierState* b, std::uint32_t phase, const void* pc, const char* what, const char* file, int line) {
    running(what, file, line);
    touch(b, pc, what, file, line);
    require_init(b, what, file, line);
    if (b->phase > phase) return true;
    yield_thread();
    return b->phase > phase;
}

void barrier_copy(BarrierState* b, void* dst, const void* src, std::size_t bytes, const void* pc) {
    Thread& t = running("cuda::memcpy_async", "", 0);
    if (bytes) t.barrier_copies.push_back(BarrierCopy{b, AsyncCopy{dst, src, bytes, pc, 0}});
}

}  // namespace emu::detail
