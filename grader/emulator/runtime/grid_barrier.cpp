// grid.sync() of a cooperative launch. On a GPU every block of such a grid is resident at once, and the grid barrier
// waits until all of them have arrived. Here one block runs at a time: each block runs until every one of its threads
// waits at grid.sync() (or has exited), then it is parked (its threads' stacks, its __shared__ bytes and their shadow
// are copied aside) and the next block runs on the same stacks. Once every block is parked, the barrier completes
// and each block is put back and resumed in turn, until the next grid.sync(). A block that exits while others wait
// at a grid.sync() is a deadlock (the GPU would hang): reported, and the launch fails.
//
// Between two grid barriers each block runs without interruption, like a block of an ordinary launch, so the
// memory checker sees the accesses of different blocks in one phase as unordered (races between blocks are found as
// in any launch) and accesses before a grid barrier as ordered with those after it.
#include <string>
#include <utility>
#include <vector>

#include "engine.hpp"

namespace emu::rt {
namespace {

// A block that waits at grid.sync() while the others run.
struct Parked {
    Dim3 index;
    std::vector<Thread> threads;
    std::vector<WarpState> warps;
    std::vector<unsigned> order;
    unsigned live = 0;
    std::uint32_t block_epoch = 0;
    std::uint64_t serial = 0, barrier_intervals = 0;
    std::vector<std::vector<char>> stacks;  // per thread: the part of its stack in use
    SuspendedMemory memory;
};

void park(Engine& e, Parked& p) {
    on_block_suspend(p.memory);
    p.index = e.threads[0].info.block;
    p.stacks.resize(e.nthreads);
    for (unsigned i = 0; i < e.nthreads; ++i) fiber_save_stack(i, e.threads[i].ctx, p.stacks[i]);
    p.live = e.live;
    p.block_epoch = e.block_epoch;
    p.serial = e.block_serial;
    p.barrier_intervals = e.barrier_intervals;
    // The vectors move whole: each fiber's saved context points at its Thread, which keeps its address.
    p.threads = std::move(e.threads);
    p.warps = std::move(e.warps);
    p.order = std::move(e.order);
    e.threads.clear();
    e.warps.clear();
    e.order.clear();
    init_threads(e);
}

// Puts the block back and releases its threads from the grid barrier.
void resume(Engine& e, Parked& p) {
    watchdog_block_begin();  // the watchdog times each stretch a block runs, as for a block's start
    e.threads = std::move(p.threads);
    e.warps = std::move(p.warps);
    e.order = std::move(p.order);
    e.live = p.live;
    e.runnable = 0;
    e.at_barrier = p.live;
    e.block_epoch = p.block_epoch;
    e.block_serial = p.serial;
    e.barrier_intervals = p.barrier_intervals;
    emu_builtin_block_idx = uint3{p.index.x, p.index.y, p.index.z};
    for (unsigned i = 0; i < e.nthreads; ++i) fiber_restore_stack(i, p.stacks[i]);
    p.stacks.clear();
    on_block_resume(p.memory);
    complete_barrier(e);
}

std::string dims(const Dim3& d) {
    return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

std::string block_list(const std::vector<Dim3>& blocks) {
    std::string out;
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        if (i == 8) {
            out += ", … (" + std::to_string(blocks.size()) + " blocks in all)";
            break;
        }
        out += (i ? ", " : "") + dims(blocks[i]);
    }
    return out;
}

void report_deadlock(const Engine& e, const std::vector<Parked>& waiting, const std::vector<Dim3>& exited) {
    std::vector<Dim3> at;
    for (const Parked& p : waiting) at.push_back(p.index);
    const Wait& w = waiting.front().threads[0].wait;
    report(Diagnostic{"deadlock",
                      "Deadlock at grid_group::sync() in kernel " + std::string(e.name) + ":\n    block(s) " +
                          block_list(at) + " wait at grid_group::sync() in " + w.file + ":" + std::to_string(w.line) +
                          "\n    block(s) " + block_list(exited) + " exited without reaching it" +
                          "\nHint: every block of a cooperative grid must reach each grid.sync(); a block that returns "
                          "early leaves the others waiting (on a GPU the kernel never ends).",
                      Severity::error});
}

}  // namespace

void run_cooperative_grid(Engine& e) {
    std::vector<Parked> parked, next;
    std::vector<Dim3> exited;  // blocks that ended since the last grid barrier
    auto after_run = [&](const Dim3& index, BlockEnd end) {
        if (end == BlockEnd::finished) exited.push_back(index);
        if (end != BlockEnd::at_grid_sync) return;
        next.emplace_back();
        park(e, next.back());
    };
    for (unsigned z = 0; z < e.grid.z && !e.aborted; ++z)
        for (unsigned y = 0; y < e.grid.y && !e.aborted; ++y)
            for (unsigned x = 0; x < e.grid.x && !e.aborted; ++x) {
                start_block(e, Dim3{x, y, z});
                after_run(Dim3{x, y, z}, drive_block(e));
            }
    while (!e.aborted && !next.empty()) {
        parked.swap(next);
        next.clear();
        if (!exited.empty()) {
            report_deadlock(e, parked, exited);
            e.aborted = true;
            e.abort_error = cudaErrorLaunchFailure;
            break;
        }
        on_grid_barrier();
        for (Parked& p : parked) {
            if (e.aborted) break;
            resume(e, p);
            after_run(p.index, drive_block(e));
        }
    }
    // Blocks still parked when the launch failed are dropped: their fibers are never resumed.
    if (e.threads.size() < e.nthreads) init_threads(e);
}

}  // namespace emu::rt
