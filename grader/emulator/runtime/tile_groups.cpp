// Collectives of cooperative-groups tiles wider than a warp (thread_block_tile<64> … <512>): a barrier over a range of
// the block's threads, and a value exchange (what the tile's shfl, reductions and scans are built from). On a GPU
// they are named barriers plus shared memory; here a collective completes when every member has arrived at one of
// the same kind, and a member that exited or waits elsewhere is explained when the block stalls.
#include <emu/intrinsics_detail.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <unordered_map>

#include "engine.hpp"

namespace emu::rt {
namespace {

// Members arrived per tile (key: first << 32 | count), for the running block execution only.
struct Arrivals {
    std::uint64_t block = 0;
    std::unordered_map<std::uint64_t, unsigned> count;
};
Arrivals g_arrivals;

std::unordered_map<std::uint64_t, unsigned>& arrivals() {
    if (g_arrivals.block != g_engine.block_serial) {
        g_arrivals.block = g_engine.block_serial;
        g_arrivals.count.clear();
    }
    return g_arrivals.count;
}

std::uint64_t key(unsigned first, unsigned count) { return (std::uint64_t{first} << 32) | count; }

bool same_collective(const Thread& a, const Thread& b) {
    return a.state == TState::group && a.wait.group_first == b.wait.group_first &&
           a.wait.group_count == b.wait.group_count && a.wait.op == b.wait.op;
}

// Every member is here at a collective of the same kind: hand out the results and wake them.
bool try_complete(const Thread& t) {
    Engine& e = g_engine;
    const unsigned first = t.wait.group_first, count = t.wait.group_count;
    for (unsigned i = first; i < first + count; ++i)
        if (!same_collective(e.threads[i], t)) return false;
    if (static_cast<emu::detail::GroupOp>(t.wait.op) == emu::detail::GroupOp::exchange) {
        for (unsigned i = first; i < first + count; ++i) {
            Thread& m = e.threads[i];
            const int src = m.wait.b;
            m.result =
                src >= 0 && static_cast<unsigned>(src) < count ? e.threads[first + src].wait.value : m.wait.value;
        }
    } else {
        // The checker models block-wide barriers only: a tile barrier counts as one for it. Accesses of other tiles
        // across it are then taken as ordered (a race between two tiles can be missed, none is invented).
        ++e.block_epoch;
        on_barrier();
    }
    for (unsigned i = first; i < first + count; ++i) {
        e.threads[i].state = TState::runnable;
        ++e.runnable;
    }
    arrivals()[key(first, count)] -= count;
    return true;
}

}  // namespace

bool diagnose_group_stall() {
    Engine& e = g_engine;
    const Thread* w = nullptr;
    for (unsigned i = 0; i < e.nthreads && !w; ++i)
        if (e.threads[i].state == TState::group) w = &e.threads[i];
    if (!w) return false;
    const unsigned first = w->wait.group_first, count = w->wait.group_count;
    std::vector<unsigned> here, exited, at_barrier, elsewhere;
    std::string elsewhere_text;
    for (unsigned i = first; i < first + count; ++i) {
        const Thread& m = e.threads[i];
        if (same_collective(m, *w)) {
            here.push_back(i);
        } else if (m.state == TState::exited) {
            exited.push_back(i);
        } else if (m.state == TState::barrier) {
            at_barrier.push_back(i);
        } else {
            elsewhere.push_back(i);
            if (elsewhere_text.empty()) elsewhere_text = wait_site(m);
        }
    }
    std::string msg =
        std::string(at_barrier.empty() ? "Barrier error detected. Divergent thread(s) in tile" : "Deadlock in tile") +
        " of threads " + thread_set({first}) + "-" + thread_set({first + count - 1}) + " in block " + block_coords() +
        " of kernel " + e.name + ":\n    thread(s) " + thread_set(here) + " wait at " + wait_site(*w);
    if (!exited.empty()) msg += "\n    exited without reaching it: thread(s) " + thread_set(exited);
    if (!at_barrier.empty())
        msg += "\n    wait at " + wait_site(e.threads[at_barrier.front()]) + " instead: thread(s) " +
               thread_set(at_barrier);
    if (!elsewhere.empty()) msg += "\n    wait at " + elsewhere_text + " instead: thread(s) " + thread_set(elsewhere);
    msg +=
        "\nHint: every thread of a tile must reach each of the tile's collectives (sync, shfl, reduce, scan); an "
        "early `return` or a call inside a branch that part of the tile skips leaves the others waiting.";
    fail_launch(at_barrier.empty() ? "divergent-barrier" : "deadlock", msg, cudaErrorLaunchFailure);
    return true;
}

}  // namespace emu::rt

namespace emu::detail {

std::uint64_t group_collective(GroupOp op, unsigned first, unsigned count, std::uint64_t value, int src,
                               const char* what, const char* file, int line) {
    using namespace emu::rt;
    if (!g_in_kernel) {
        std::fprintf(stderr, "emu: %s called outside a kernel (%s:%d)\n", what, file, line);
        std::abort();
    }
    Engine& e = g_engine;
    Thread& t = *e.cur;
    if (first + count > e.nthreads) {
        fail_launch("tile-size",
                    std::string(what) + " at " + file + ":" + std::to_string(line) + " called by thread " +
                        thread_coords(t) + " in block " + block_coords() + " of kernel " + e.name +
                        "\n    its tile is "
                        "threads " +
                        std::to_string(first) + "-" + std::to_string(first + count - 1) +
                        " (linear ids), but the block has " + std::to_string(e.nthreads) + " threads" +
                        "\nHint: a thread_block_tile<N> partition needs a block size that is a multiple of N.",
                    cudaErrorLaunchFailure);
    }
    t.wait = Wait{};
    t.wait.op = static_cast<int>(op);
    t.wait.group_first = first;
    t.wait.group_count = count;
    t.wait.value = value;
    t.wait.b = src;
    t.wait.what = what;
    t.wait.file = file;
    t.wait.line = line;
    t.state = TState::group;
    --e.runnable;
    unsigned& n = arrivals()[key(first, count)];
    ++n;
    if (n < count || !try_complete(t)) switch_away(t);
    // The last member to arrive completed the collective and keeps running.
    return t.result;
}

}  // namespace emu::detail

namespace cooperative_groups::details {

bool grid_is_cooperative() { return emu::rt::g_in_kernel && emu::rt::g_engine.cooperative; }

// grid.sync(): a barrier of every thread of the grid (grid_barrier.cpp parks each block there until all have
// arrived). Outside a cooperative launch CUDA's grid_group has no barrier to wait at and traps, which the runtime
// reports as cudaErrorLaunchFailure.
std::uint64_t grid_sync(const char* file, int line) {
    using namespace emu::rt;
    if (!g_in_kernel) {
        std::fprintf(stderr, "emu: grid_group::sync() called outside a kernel (%s:%d)\n", file, line);
        std::abort();
    }
    Engine& e = g_engine;
    if (!e.cooperative)
        fail_launch("grid-sync",
                    "grid_group::sync() at " + std::string(file) + ":" + std::to_string(line) + " by thread " +
                        thread_coords(*e.cur) + " in block " + block_coords() + " of kernel " + e.name +
                        "\n    the kernel was not launched with cudaLaunchCooperativeKernel: grid.is_valid() is false, "
                        "and on a GPU sync() then traps (cudaErrorLaunchFailure)"
                        "\nHint: launch it with cudaLaunchCooperativeKernel(kernel, grid, block, args), with a grid no "
                        "larger than cudaOccupancyMaxActiveBlocksPerMultiprocessor times the SM count.",
                    cudaErrorLaunchFailure);
    emu::detail::barrier(emu::detail::BarrierOp::grid, 1, file, line);
    return 0;
}

}  // namespace cooperative_groups::details
