// Internals of the memory checker, shared by tsan_hooks.cpp (the entry points instrumented code calls),
// device_memory.cpp (global memory), shared_arena.cpp (the __shared__ arena) and memcheck.cpp (shadow state,
// race and initialization checks, reports).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "exec.hpp"
#include "profile.hpp"

namespace emu::mc {

// Access flags.
enum : unsigned {
    kWrite = 1,         // else a read
    kAtomic = 2,        // an atomic operation (read-modify-write: checked as a write that also reads)
    kNaturalAlign = 4,  // the compiler assumed the address aligned to the access size (plain __tsan_readN/writeN)
    kMaybeRead = 8,     // a read only if the callee takes the value (emu_arg_read on a non-const element): never
                        // reported as uninitialized, as the callee may take a reference and only write
    kAtomicStore = 16   // with kAtomic: an atomic store, which writes without reading (cuda::atomic's store(0)
                        // initializes the object)
};

// The two regions hooks check in detail: device allocations and the __shared__ arena. Written once at start-up (the
// regions are reserved whole, so the bounds never move), through set_heap_bounds / set_arena_bounds, on a page of
// their own that is read-only otherwise: a forged pointer in student code (host code included, which no hook
// refuses) cannot empty the ranges and so switch the checker off (docs/security.md, "a forged pointer switches the
// memory checker off").
// The same page holds the orders the runtime chose for threads and blocks (a program that set them back to the index
// order would make a race whose values depend on the order pass again: docs/security.md, session 8).
struct alignas(4096) Bounds {
    std::uintptr_t heap_lo, heap_hi;    // device allocations
    std::uintptr_t arena_lo, arena_hi;  // __shared__ arena
    int schedule;                       // emu::Schedule of the threads of a block (scheduler.cpp)
    std::uint64_t schedule_seed;
    int block_order;  // the blocks' order from EMU_BLOCK_ORDER (block_order.cpp): index, reverse, random
    std::uint64_t block_order_seed;
};
extern Bounds g_bounds;
// Opens the page for writing while it lives; the runtime's only way to change what it holds.
class BoundsWriter {
 public:
    BoundsWriter();
    ~BoundsWriter();
    BoundsWriter(const BoundsWriter&) = delete;
    BoundsWriter& operator=(const BoundsWriter&) = delete;
    Bounds* operator->() { return &g_bounds; }
};
inline const std::uintptr_t& g_heap_lo = g_bounds.heap_lo;
inline const std::uintptr_t& g_heap_hi = g_bounds.heap_hi;
inline const std::uintptr_t& g_arena_lo = g_bounds.arena_lo;
inline const std::uintptr_t& g_arena_hi = g_bounds.arena_hi;
void set_heap_bounds(std::uintptr_t lo, std::uintptr_t hi);
void set_arena_bounds(std::uintptr_t lo, std::uintptr_t hi);

// The running CUDA thread's own fiber stack (its locals): set at every switch to a thread (scheduler.cpp's enter;
// defined in kernel_reach.cpp). The stacks belong to the engine (fiber.cpp).
extern std::uintptr_t g_stack_lo, g_stack_hi;
// An access inside a kernel to none of the above: allowed only where a GPU kernel could reach (the launch's
// parameters, the built-in variables, __device__ variables, read-only data, registered host memory), else an
// illegal address that ends the launch (kernel_reach.cpp).
void outside_access(std::uintptr_t addr, std::size_t size, unsigned flags, const void* pc);
// A write of the running thread's own stack: refused where a frame keeps its caller's frame pointer and return address
// (the chain of frame pointers from `caller_frame`, the instrumented caller's: emulated code is compiled at -O0, with
// frame pointers), so that a kernel cannot redirect a return (kernel_reach.cpp).
void stack_write(std::uintptr_t addr, std::size_t size, unsigned flags, const void* caller_frame, const void* pc);
// The launch's parameter buffer (the body closure that holds the copies of the arguments): readable by the kernel.
void set_launch_params(const void* body, std::size_t bytes);

void global_access(std::uintptr_t addr, std::size_t size, unsigned flags, const void* pc);
void shared_access(std::uintptr_t addr, std::size_t size, unsigned flags, const void* pc);

// A write-write hazard waits for its store to land (see note_waw_unless_same_value below). It is settled by the
// next write, or the next access of another thread: a read of the same thread may come between the write hook and
// the store (an aggregate copy `tile[i] = h` calls the write hook, then the hook reading `h`, then copies), so it
// must not judge the bytes yet.
extern bool g_waw_pending;
extern std::uint32_t g_waw_thread;  // linear id of the thread whose store the hazard waits for
void settle_waw();

}  // namespace emu::mc
// The built-in variables (runtime/builtins.cpp) in their own section, whose bounds the linker defines: a kernel's
// read of threadIdx (several per thread at -O0) is decided inline.
extern "C" char __start_emu_builtins[] __attribute__((weak, visibility("hidden")));
extern "C" char __stop_emu_builtins[] __attribute__((weak, visibility("hidden")));
namespace emu::mc {

inline void access(const void* p, std::size_t size, unsigned flags, const void* pc) {
    if (__builtin_expect(g_waw_pending, 0) && ((flags & kWrite) || rt::current_thread().linear != g_waw_thread))
        settle_waw();
    if (__builtin_expect(prof::g_on, 0)) prof::on_access(p, size, flags, pc);  // the opt-in profiler (profile.hpp)
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    // The regions below do not overlap, so the order of the tests decides nothing but their cost: the thread's own
    // locals first, as -O0 code reaches them through pointers and references in most of its accesses (counted over
    // the solutions of rmsnorm, welford, layernorm and fused_add_rmsnorm: 85 % of the hook calls, then 7 % device
    // memory, 6 % built-ins, 2 % shared memory).
    if (a - g_stack_lo < g_stack_hi - g_stack_lo && size <= g_stack_hi - a) {  // the thread's own locals
        // The frame pointer of the hook's caller, read now: the call below may be a tail call, and this frame gone.
        if (flags & (kWrite | kAtomic))
            stack_write(a, size, flags, *static_cast<void* const*>(__builtin_frame_address(0)), pc);
        return;
    }
    if (a - g_arena_lo < g_arena_hi - g_arena_lo) shared_access(a, size, flags, pc);
    else if (a - g_heap_lo < g_heap_hi - g_heap_lo) global_access(a, size, flags, pc);
    else if (!(flags & (kWrite | kAtomic)) && a - reinterpret_cast<std::uintptr_t>(__start_emu_builtins) <
                                                  reinterpret_cast<std::uintptr_t>(__stop_emu_builtins) -
                                                      reinterpret_cast<std::uintptr_t>(__start_emu_builtins))
        return;  // threadIdx, blockIdx, blockDim, gridDim
    else outside_access(a, size, flags, pc);
}

// Host code touching device memory that is not host-accessible: reported, then the program aborts.
void host_access(std::uintptr_t addr, std::size_t size, unsigned flags, const void* pc);

// Counts hook calls made inside kernels (for the overhead numbers in docs/emulator.md).
extern std::uint64_t g_hook_calls;

// ---- shared arena (shared_arena.cpp) --------------------------------------------------------------------------
// Every block starts with its shared memory filled with this byte (uninitialized floats read as NaN).
constexpr unsigned char kSharedGarbage = 0xff;
struct SharedVarInfo {
    const char* name;    // "smem", or "dynamic shared memory"
    std::size_t offset;  // of the variable's first byte in the arena
    std::size_t size;
};
// The variable whose bytes (or redzone) hold arena offset `off`, or the nearest one before it; false if none.
bool shared_var_at(std::size_t off, SharedVarInfo* out, bool* in_bounds);
extern unsigned char* g_shared_addressable;  // one flag per arena byte: inside a variable of the running launch
inline bool shared_addressable(std::size_t off, std::size_t size) {
    if (off + size > g_arena_hi - g_arena_lo) return false;
    for (std::size_t i = 0; i < size; ++i) {
        if (!g_shared_addressable[off + i]) return false;
    }
    return true;
}
// The arena ranges [offset, offset + size) the running block can address (namespace-scope, static and dynamic).
std::vector<std::pair<std::size_t, std::size_t>> shared_live_ranges();
std::size_t shared_dynamic_offset();
std::size_t shared_dynamic_size();
void shared_launch_begin(std::size_t dynamic_bytes);
void shared_block_begin();

// ---- shadow state and reports (memcheck.cpp) ----------------------------------------------------------------
void shadow_check(std::size_t arena_off, std::size_t size, unsigned flags, const void* pc);
void shadow_launch_begin();
void shadow_launch_end();  // reports the races and uninitialized reads collected during the launch

// ---- device memory (device_memory.cpp) ----------------------------------------------------------------------
void device_launch_end();

// ---- races (memcheck.cpp collects and reports them; memcheck.cpp and global_shadow.cpp find them) -----------
enum class Hazard { raw, war, waw };
struct Race {
    Hazard hazard;
    bool global;       // in device memory (addr is an address), else in the __shared__ arena (addr is an offset)
    bool cross_block;  // the first access was made by another block of the same launch
    const void* first_pc;
    std::uint32_t first_thread;  // linear index in its block, or ~0u when unknown
    rt::Dim3 first_block;        // when cross_block
    bool first_atomic;
    const void* pc;  // of the second access (the running thread's)
    bool atomic;
    bool same_warp;  // both accesses from one warp: a __syncwarp would have been enough
    std::uintptr_t addr;
    std::size_t size;
};
// Records a hazard of the running thread's access.
void note_race(const Race& r);
// Two plain writes: a hazard only if the second one changes the bytes (compute-sanitizer's racecheck does not report
// several threads storing the same value). The hook runs before its store, so the verdict waits until the store has
// happened: the next write, the next access of another thread, the next block, or the end of the launch
// (settle_waw). `mem` is where the
// bytes are.
void note_waw_unless_same_value(const Race& r, const void* mem);

// ---- global memory races (global_shadow.cpp) ------------------------------------------------------------------
// Shadow of one allocation: created with it, released with it (prefault: device-only memory, used whole as a rule).
void* global_shadow_create(std::size_t bytes, bool prefault);
void global_shadow_destroy(void* shadow, std::size_t bytes);
// Checks (and records) an access of `size` bytes at byte `off` of the allocation whose shadow is `shadow`, which
// starts at address `begin`.
void global_shadow_check(void* shadow, std::uintptr_t begin, std::size_t off, std::size_t size, unsigned flags,
                         const void* pc);
void global_clock_launch_begin();
void global_clock_block_begin();
void global_clock_barrier();
void global_clock_grid_barrier();
void global_clock_warp_sync(unsigned warp);
bool global_cross_block_suppressed();  // the launch called __threadfence(): see global_shadow.cpp
// "global memory, bytes 4..7 of an allocation of 400 bytes made at f.cu:12" (device_memory.cpp).
std::string global_location(std::uintptr_t addr, std::size_t size);
// Forgets every recorded access (device_memory.cpp walks the live allocations; the stamp counter wrapped).
void global_shadow_reset_all();

// ---- message helpers (memcheck.cpp) -------------------------------------------------------------------------
std::string thread_str(unsigned linear);    // "(x,y,z)" of a linear thread index in the running block
std::string dim_str(const rt::Dim3& d);     // "(x,y,z)"
std::string where(const void* pc);          // "file.cu:LINE" of attribute(pc) (via rt::symbolize)
std::string address_hex(std::uintptr_t a);  // "0x7f…", as the reports print an address
const void* attribute(const void* pc);      // see memcheck.cpp
// Reports `kind` with the standard header lines and aborts the launch with `cuda_error`.
[[noreturn]] void fatal(const char* kind, const std::string& body, int cuda_error);

}  // namespace emu::mc
