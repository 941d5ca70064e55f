// State of the running launch, shared by the scheduler, the collectives, the launch driver and the signal handlers.
// One launch runs at a time, on the OS thread that called it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <emu/launch.hpp>  // LaunchConfig, KernelThunk (does not declare the built-in variables)
#include <emu/vector_types_compat.hpp>

#include "exec.hpp"
#include "fiber.hpp"

// The built-in variables (threadIdx…), writable under other names for the engine: the same symbols kernels read as
// const (include/emu/intrinsics.hpp); defined in builtins.cpp.
extern uint3 emu_builtin_thread_idx __asm__("threadIdx");
extern uint3 emu_builtin_block_idx __asm__("blockIdx");
extern dim3 emu_builtin_block_dim __asm__("blockDim");
extern dim3 emu_builtin_grid_dim __asm__("gridDim");

namespace emu::rt {

// `group`: waiting at a collective of a cooperative-groups tile wider than a warp (tile_groups.cpp); `phase`: waiting
// for a phase of a cuda::barrier (or a block pipeline's stage) to complete (block_barrier.cpp).
enum class TState : std::uint8_t { runnable, barrier, warp, group, phase, exited };
enum class Coll : std::uint8_t { shfl, vote, syncwarp, activemask, reduce, match };

// What a blocked thread waits at. The fields every warp collective sets and reads come first (see Thread).
struct Wait {
    Coll coll = Coll::syncwarp;
    int op = 0;  // barrier op, shuffle mode or vote op
    unsigned mask = 0;
    int b = 0, c = 0, pred = 0;
    unsigned size = 0;  // bytes moved by a shuffle
    int line = 0;
    std::uint64_t value = 0;
    const char* file = "";
    unsigned group_first = 0, group_count = 0;  // a multi-warp tile: linear thread ids [first, first + count)
    const char* what = "";                      // a multi-warp tile's or a barrier's call, for diagnostics
    const void* object = nullptr;               // the cuda::barrier waited at (`phase`: the phase waited for)
    std::uint32_t phase = 0;
};

// A copy queued by memcpy_async, made when its thread waits for its stage (async_copy.cpp).
struct AsyncCopy {
    void* dst;
    const void* src;  // null: zero fill
    std::size_t bytes;
    const void* pc;  // the memcpy_async call
    std::uint32_t stage;
};

// A copy queued on a cuda::barrier (or a block pipeline's stage), made at its thread's next arrival there.
struct BarrierCopy {
    const void* barrier;
    AsyncCopy copy;
};

// A block runs 256 or 1024 of these, and every switch and warp collective touches a few. Each starts on a cache line
// of its own: the first line holds what a switch to the thread reads (context, state, identity, stack), the second
// the result and the fields of the wait a warp collective sets and reads, so that a lane's switch and shuffle touch
// two lines of its Thread, not three or four (the threads' stacks alone fill the first-level cache; measured with
// callgrind's cache model).
struct alignas(64) Thread {
    FiberContext ctx;
    TState state = TState::runnable;
    bool started = false;
    ThreadInfo info;
    std::uintptr_t stack_lo = 0, stack_hi = 0;  // its fiber stack (fiber_stack(info.linear)), set by start_block
    std::uint64_t result = 0;
    Wait wait;
    std::vector<AsyncCopy> copies;              // queued, oldest first
    std::uint32_t committed = 0, released = 0;  // stages committed and released by a pipeline's consumer
    std::vector<BarrierCopy> barrier_copies;    // queued on barriers, oldest first
    // The top of what the kernel may touch on this thread's stack: the fiber's entry frame (fiber_main) lies above
    // it (scheduler.cpp); 0 until the fiber first runs.
    std::uintptr_t stack_top = 0;
};

// Makes `t`'s copies queued on `barrier` (all of them: nullptr), in order (block_barrier.cpp).
void complete_barrier_copies(Thread& t, const void* barrier);
// Every thread exited with copies still queued on a barrier whose phase never completed: makes them, each as its
// own thread's access, as a kernel's end completes outstanding copies.
void land_leftover_barrier_copies();
// Explains a stall in which some thread waits for a barrier's phase; false if none does (block_barrier.cpp).
bool diagnose_phase_stall();

// Makes the running thread's queued copies of stages up to `stage` (all: ~0u), in order (async_copy.cpp).
void complete_async_copies(Thread& t, std::uint32_t stage);

struct WarpState {
    unsigned exists = 0;  // lanes that exist (a partial last warp has fewer)
    unsigned exited = 0;
    unsigned arrived = 0;        // lanes blocked at a warp collective
    unsigned at_activemask = 0;  // lanes blocked in __activemask()
    std::uint32_t epoch = 0;
};

struct Engine {
    // launch
    const char* name = "";
    emu::detail::KernelThunk thunk = nullptr;
    void* body = nullptr;
    Dim3 grid, block;
    bool running = false;  // a launch is in progress
    bool aborted = false;
    bool cooperative = false;  // launched with cudaLaunchCooperativeKernel
    int abort_error = 0;
    // block
    std::vector<Thread> threads;
    std::vector<WarpState> warps;
    std::vector<unsigned> order;
    unsigned nthreads = 0, live = 0, runnable = 0, at_barrier = 0;
    std::uint32_t block_epoch = 0;
    std::uint64_t block_serial = 0;
    std::uint64_t barrier_intervals = 0;
    Thread* cur = nullptr;
    // While the memory checker is told about an access the running thread makes for another one (a copy queued by
    // that thread, made when a barrier phase completes): that thread, whose identity the checker records.
    Thread* acting = nullptr;
    unsigned pos = 0;  // index in `order` of the running thread during a pass
    FiberContext sched_ctx;
};

extern Engine g_engine;

// Runs every block of a validated launch; returns 0 or the cudaError_t that aborted it.
int execute_launch(const char* name, emu::detail::KernelThunk thunk, void* body, Dim3 grid, Dim3 block,
                   std::size_t shared_bytes, bool cooperative = false);

// The pieces of a block's execution (scheduler.cpp), for the cooperative driver too.
// How a block's run ended: every thread exited, the launch failed, or every thread waits at grid.sync().
enum class BlockEnd { finished, aborted, at_grid_sync };
void init_threads(Engine& e);             // e.threads and e.warps for the launch's block shape
void start_block(Engine& e, Dim3 index);  // a new block execution: fresh fibers for every thread
BlockEnd drive_block(Engine& e);          // runs the block until it finishes, fails or waits at grid.sync()
void complete_barrier(Engine& e);         // every live thread waits at one barrier: releases them
// Runs every block of a cooperative launch, parking each block at grid.sync() until all have arrived; reports a
// block that exits while others wait there (grid_barrier.cpp).
void run_cooperative_grid(Engine& e);

// Leaves the running fiber `t` (its state already updated): switches straight to the next runnable thread of this
// pass, or back to the scheduler when the pass is over. One switch per blocking call instead of two.
void switch_away(Thread& t);

// Blocks the running thread (its Wait and state already set) until the scheduler resumes it.
void block_current();

// Completes the warp collective that `t` just joined if every lane of its mask has arrived at a matching one.
void try_complete_warp(unsigned warp, const Thread& t);

// Explains a stall in which some thread waits at a multi-warp tile collective; false if none does
// (tile_groups.cpp).
bool diagnose_group_stall();
const char* reduce_name(int op);  // "__reduce_add_sync" … (collectives.cpp)

// Gives the lanes waiting in __activemask() their answer once the whole block is blocked. Returns true if any ran.
bool complete_activemasks();

// Text helpers for diagnostics.
std::string thread_coords(const Thread& t);                   // "(x,y,z)"
std::string block_coords();                                   // "(x,y,z)" of the running block
std::string thread_set(const std::vector<unsigned>& linear);  // "(0,0,0)-(31,0,0), (40,0,0)"
std::string lane_set(unsigned lanes);                         // "0-15, 17"
std::string wait_site(const Thread& t);                       // "__shfl_down_sync(mask 0xffffffff) at f.cu:12"

// Reports a diagnostic about the running block and ends the launch with `cuda_error` (callable from a fiber or from
// the scheduler).
void fail_launch(const char* kind, const std::string& message, int cuda_error);

// Environment and settings.
void load_schedule_from_env();
void make_order(std::vector<unsigned>& order, unsigned n);

// Signals and watchdog (signals.cpp).
void install_fault_handlers();
void watchdog_launch_begin();
void watchdog_block_begin();
void watchdog_launch_end();
// Same as symbolize, for an exact instruction address (a faulting pc) rather than a return address.
std::string symbolize_exact(const void* pc);
// The function containing `pc`, demangled, "" when unknown.
std::string function_name(const void* pc);

}  // namespace emu::rt
