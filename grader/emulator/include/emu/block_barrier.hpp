// The runtime side of cuda::barrier<cuda::thread_scope_block> and of block-scoped cuda::pipelines (include/cuda/barrier,
// include/cuda/pipeline; implemented in runtime/block_barrier.cpp). A barrier's state lives in the object itself, in
// shared memory, as an mbarrier's does on a GPU; only the runtime (not instrumented) touches it, and it tells the
// memory checker about each use at the caller's line: init() is a plain write of the object (so an arrival that no
// __syncthreads() separates from the init is a race, and one before any init an uninitialized read), arrivals and
// waits are atomic accesses. A phase completes at its last arrival, which the checker counts as a block-wide barrier
// (as it counts a wide tile's sync()). A copy queued on a barrier (cuda::memcpy_async(..., bar)) lands when the
// phase completes, checked as its thread's access at the memcpy_async's line.
#pragma once
#include <cstddef>
#include <cstdint>

namespace emu::detail {

struct BarrierState {
    std::uint64_t block;          // the block execution whose init() set it up (shared memory starts as 0xff bytes)
    std::uint32_t expected;       // arrivals that complete the current phase
    std::uint32_t next_expected;  // the same for the next phases (arrive_and_drop lowers it)
    std::uint32_t pending;        // arrivals still missing in the current phase
    std::uint32_t phase;          // phases completed
    const char* init_file;        // where init() was called, for diagnostics
    int init_line;
    // Who initialized it, when: a use by another thread in the same barrier interval races with the init (the
    // checker's own record of the init's write is replaced by the first arrival's).
    const void* init_pc;
    std::uint32_t init_thread, init_epoch;
};

// Called with the completion function's object when a phase completes, before anyone waiting is released.
using BarrierCompletion = void (*)(void*);

// `object_bytes`: the whole barrier object (its completion function too), written by the init.
void barrier_init(BarrierState* b, std::size_t object_bytes, std::ptrdiff_t expected, const void* pc, const char* file,
                  int line);
// Arrives `n` times (drop: and leaves the barrier for the next phases); returns the phase arrived at (the token).
std::uint32_t barrier_arrive(BarrierState* b, std::ptrdiff_t n, bool drop, BarrierCompletion complete, void* obj,
                             const void* pc, const char* what, const char* file, int line);
// Blocks until phase `phase` has completed.
void barrier_wait(BarrierState* b, std::uint32_t phase, const void* pc, const char* what, const char* file, int line);
// Whether phase `phase` has completed. When it has not, the thread yields first (as __nanosleep does), so that a loop
// polling it lets the threads it waits for run, as they would beside it on a GPU.
bool barrier_test(BarrierState* b, std::uint32_t phase, const void* pc, const char* what, const char* file, int line);
// Queues a copy that lands when the current phase of `b` completes (null src: zero fill).
void barrier_copy(BarrierState* b, void* dst, const void* src, std::size_t bytes, const void* pc);

// make_pipeline(group, state, …) for the calling thread (runtime/block_pipeline.cpp): counts its roles into the
// shared state (before the group's sync) and sets up the stage barriers (after it; the first thread there does it).
struct PipelineShared {
    std::uint64_t block;  // the block execution the counts below belong to
    std::uint32_t producers, consumers, joined;
};
void pipeline_join(PipelineShared* p, BarrierState* stage_barriers, unsigned stages, bool producer, bool consumer,
                   const void* pc, const char* file, int line);
void pipeline_setup(PipelineShared* p, BarrierState* full, BarrierState* empty, unsigned stages, const char* file,
                    int line);

}  // namespace emu::detail
