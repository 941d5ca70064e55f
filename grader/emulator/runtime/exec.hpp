// The seam between the emulator's execution engine (fibers, scheduler, launches: execution team) and its
// memory checker (shadow memory, __tsan_* hooks, shared-memory arena, device allocations: memory team).
// Both sides include this header; each side implements the functions listed under its name.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace emu::rt {

struct Dim3 {
    unsigned x = 1, y = 1, z = 1;
};

// ---- implemented by the execution engine (runtime/scheduler.cpp and friends) ---------------------------------

// True while a kernel's thread (a fiber) is running on this OS thread. The checker's hooks return at once when false.
// Per OS thread: a program may call CUDA from several host threads (the samples' simpleCallback, cudaOpenMP), and one
// thread's host code must not be taken for the kernel another thread is running. Initial-exec TLS keeps the hot path
// one load (%fs-relative), as a plain global was. __constinit (GCC's constinit before C++20) tells every user that the
// variable has no dynamic initializer: without it, each access from another file first tests for a thread_local
// initialization function (a load and a branch), and the hooks kept two registers saved around that possible call.
extern __constinit thread_local bool g_in_kernel __attribute__((tls_model("initial-exec")));

struct ThreadInfo {
    Dim3 thread;          // threadIdx
    Dim3 block;           // blockIdx
    unsigned linear;      // linear thread index within the block
    unsigned warp, lane;  // linear / 32, linear % 32
};
const ThreadInfo& current_thread();  // valid only while g_in_kernel

// Ordering epochs. block_epoch(): number of __syncthreads (barriers) completed so far in the running block.
// warp_epoch(w): number of __syncwarp (and other warp-wide memory-ordering collectives) completed by warp w.
// block_serial(): unique number of the running block execution (changes every block, every launch).
uint32_t block_epoch();
uint32_t warp_epoch(unsigned warp);
uint64_t block_serial();
Dim3 block_dim();
Dim3 block_index();  // blockIdx of the running block (valid from on_block_begin on)
Dim3 grid_dim();
const char* kernel_name();     // of the running launch
bool launch_is_cooperative();  // the running launch may call grid.sync()

// Ends the running launch at once (the GPU would trap): records the diagnostic, marks the launch failed with
// `cuda_error` (a cudaError_t value, sticky like the real runtime), switches away from the current fiber and never
// resumes any fiber of this launch. Callable only from a kernel thread.
[[noreturn]] void abort_launch(int cuda_error);

// ---- diagnostics (implemented by the execution engine: runtime/diagnostics.cpp) ------------------------------

enum class Severity { error, warning };

struct Diagnostic {
    std::string kind;     // short id: "race", "divergent-barrier", "deadlock", "out-of-bounds", "misaligned",
                          // "uninitialized-shared", "use-after-free", "shuffle-mask", "launch", …
    std::string message;  // full multi-line text, compute-sanitizer style, with file:line and thread/block ids
    Severity severity = Severity::error;
};

// Turns a code address (e.g. __builtin_return_address(0) in a hook) into "file.cu:LINE" (function name optional).
std::string symbolize(const void* pc);

// Records a diagnostic for the running launch (deduplicated by the caller where it matters), and prints it to
// stderr at once. Collected diagnostics are handed out by emu::take_diagnostics() (include/emu/api.h).
void report(Diagnostic d);

// ---- implemented by the memory checker (runtime/memcheck.cpp, runtime/shared_arena.cpp, runtime/device_memory.cpp)

// Called by the engine at the start of each block (after block_serial() changed) and of each launch.
void on_launch_begin(std::size_t dynamic_shared_bytes);
void on_block_begin();
void on_launch_end();
// Memory-ordering points: a __syncthreads() of the running block completed (after block_epoch() changed); a
// __syncwarp() of warp `warp` completed (after warp_epoch(warp) changed).
void on_barrier();
void on_warp_sync(unsigned warp);

// A block of a cooperative grid that waits at grid.sync() while the other blocks run: its __shared__ bytes and the
// checker's shadow of them are kept aside (on_block_suspend, after its last access) and put back at the same
// addresses (on_block_resume, before its next one; the device-memory clock then starts a new block interval).
struct SuspendedMemory {
    std::vector<unsigned char> bytes, shadow;
};
void on_block_suspend(SuspendedMemory& out);
void on_block_resume(const SuspendedMemory& in);
// Every block of a cooperative grid has arrived at grid.sync(): device-memory accesses before it are ordered with
// every access after it, whichever blocks made them.
void on_grid_barrier();

// Device allocations (cudaMalloc & co. are implemented on top of these).
void* device_alloc(std::size_t bytes, bool host_accessible /* managed or pinned host memory */);
bool device_free(void* p);  // false: not a live allocation (runtime returns cudaErrorInvalidValue)
bool device_range_ok(const void* p, std::size_t bytes);  // fully inside one live allocation (for cudaMemcpy)

// Atomics on shared or global memory call this before touching memory, so that atomics do not race with each
// other but do race with plain accesses in the same barrier interval.
void on_atomic_access(const void* addr, std::size_t bytes, const void* pc);

}  // namespace emu::rt
