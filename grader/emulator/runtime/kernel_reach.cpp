// What a kernel may touch besides device allocations and the __shared__ arena (which device_memory.cpp and
// shared_arena.cpp check in detail). On a GPU a kernel cannot reach host memory: a pointer to the host heap, a host
// variable or a host thread's stack faults with cudaErrorIllegalAddress. Here every CUDA thread runs in the host
// process, so without this check a kernel could read and write anything, the memory checker's own state included (a
// forged pointer that empties its device-memory range switched it off: docs/security.md). An instrumented access
// inside a kernel is therefore allowed only to
//   - the running thread's own fiber stack (its locals);
//   - the launch's parameter buffer (reads: the closure holding the copies of the arguments, emu/launch.hpp);
//   - the built-in variables threadIdx, blockIdx, blockDim, gridDim (reads), warpSize (read-only data);
//   - __device__, __constant__ and __managed__ variables, and the static locals of device code (emu-nvcc puts them in
//     sections of their own, and registers each section's bounds);
//   - blocks a kernel allocated with malloc or new (CUDA's device heap: tsan_hooks.cpp, device_new.cpp);
//   - read-only data of the program and its libraries (reads: string literals, constant tables);
//   - host memory registered with cudaHostRegister, and ranges registered with emu::register_device_range;
// and everything else is an illegal address that ends the launch, as on a GPU. The emulator's own header code that
// touches its own state from inside a kernel (the launch's thunk, __shared__ slots) is not instrumented
// (EMU_UNCHECKED, emu/unchecked.hpp), so its accesses never reach this check, and no exemption exists that student
// code could name.
#include <link.h>
#include <sys/mman.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include <emu/api.h>

#include "api_state.hpp"
#include "memcheck.hpp"

namespace emu::rt {
bool host_registered(const void* p, std::size_t bytes);  // host_register.cpp
}

namespace emu::mc {

Bounds g_bounds;
std::uintptr_t g_stack_lo = 0, g_stack_hi = 0;

namespace {

struct ReachRange {
    std::uintptr_t lo, hi;
};

std::uintptr_t g_params_lo = 0, g_params_hi = 0;

void write_bounds(std::uintptr_t Bounds::*lo_field, std::uintptr_t Bounds::*hi_field, std::uintptr_t lo,
                  std::uintptr_t hi) {
    BoundsWriter w;
    g_bounds.*lo_field = lo;
    g_bounds.*hi_field = hi;
}

// The loaded objects' segments, read once (the program and its libraries are all loaded before a kernel runs).
struct LoadedSegments {
    std::vector<ReachRange> read_only;  // loadable segments without write permission, and RELRO ranges
    std::vector<ReachRange> writable;   // the rest: static data of the program and its libraries (for the message)
};
const LoadedSegments& loaded_segments() {
    static const LoadedSegments* s = [] {
        auto* out = new LoadedSegments;
        dl_iterate_phdr(
            [](dl_phdr_info* info, std::size_t, void* arg) {
                auto* segs = static_cast<LoadedSegments*>(arg);
                for (int i = 0; i < info->dlpi_phnum; ++i) {
                    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
                    const std::uintptr_t lo = info->dlpi_addr + ph.p_vaddr, hi = lo + ph.p_memsz;
                    if (ph.p_type == PT_GNU_RELRO) segs->read_only.push_back({lo, hi});
                    if (ph.p_type != PT_LOAD) continue;
                    (ph.p_flags & PF_W ? segs->writable : segs->read_only).push_back({lo, hi});
                }
                return 0;
            },
            out);
        return out;
    }();
    return *s;
}

bool reach_inside(const std::vector<ReachRange>& ranges, std::uintptr_t a, std::size_t size) {
    for (const ReachRange& r : ranges) {
        if (a >= r.lo && a < r.hi && size <= r.hi - a) return true;
    }
    return false;
}

bool reach_inside(const char* lo, const char* hi, std::uintptr_t a, std::size_t size) {
    const auto l = reinterpret_cast<std::uintptr_t>(lo), h = reinterpret_cast<std::uintptr_t>(hi);
    return lo && a >= l && a < h && size <= h - a;
}

// Ranges registered by the emulator's own libraries as device memory (emu::register_device_range): start -> end.
std::map<std::uintptr_t, std::uintptr_t>& registered_ranges() {
    static auto* m = new std::map<std::uintptr_t, std::uintptr_t>;
    return *m;
}
bool in_registered(std::uintptr_t a, std::size_t size) {
    auto& m = registered_ranges();
    auto it = m.upper_bound(a);
    if (it == m.begin()) return false;
    --it;
    return a < it->second && size <= it->second - a;
}

const char* what_is_at(std::uintptr_t a) {
    if (reach_inside(loaded_segments().writable, a, 1))
        return "a host variable (the program's static data), not device memory";
    if (a >= g_params_lo && a < g_params_hi) return "the launch's parameters, which a kernel cannot write";
    if (reach_inside(loaded_segments().read_only, a, 1))
        return "the program's read-only data, which a kernel cannot write";
    return "host memory (the heap: malloc, new, std::vector; a host thread's or another CUDA thread's stack), or "
           "nothing mapped";
}

// The report, out of line: the allowed accesses (every read of threadIdx among them) stay a few comparisons on a
// small frame, deep in the CUDA thread's stack.
[[noreturn]] __attribute__((noinline, cold)) void refuse(std::uintptr_t a, std::size_t size, unsigned flags,
                                                         const void* pc) {
    const rt::ThreadInfo& t = rt::current_thread();
    fatal("illegal-address",
          std::string("Invalid __global__ ") +
              ((flags & kAtomic)  ? "atomic"
               : (flags & kWrite) ? "write"
                                  : "read") +
              " of size " + std::to_string(size) + (size == 1 ? " byte" : " bytes") + "\n    at " + where(pc) +
              " in kernel " + rt::kernel_name() + "\n    by thread " + dim_str(t.thread) + " in block " +
              dim_str(t.block) + "\n    Address " + address_hex(a) + " is an illegal address for a kernel: it is " +
              what_is_at(a) +
              "\n    hint: a kernel can read and write only device memory (cudaMalloc, cudaMallocManaged, "
              "cudaMallocHost, cudaHostRegister), __shared__ and __device__ variables and its own local variables; a "
              "host pointer passed to a kernel faults on a GPU (cudaErrorIllegalAddress): copy the data into device "
              "memory with cudaMemcpy and pass the device pointer",
          700 /* cudaErrorIllegalAddress */);
}

}  // namespace

static_assert(sizeof(Bounds) == 4096, "the bounds fill one page, which holds nothing else");
// Not nested: the runtime writes one field at a time, on the one thread that sets things up.
BoundsWriter::BoundsWriter() { mprotect(&g_bounds, sizeof g_bounds, PROT_READ | PROT_WRITE); }
BoundsWriter::~BoundsWriter() { mprotect(&g_bounds, sizeof g_bounds, PROT_READ); }

void set_heap_bounds(std::uintptr_t lo, std::uintptr_t hi) { write_bounds(&Bounds::heap_lo, &Bounds::heap_hi, lo, hi); }
void set_arena_bounds(std::uintptr_t lo, std::uintptr_t hi) {
    write_bounds(&Bounds::arena_lo, &Bounds::arena_hi, lo, hi);
}

void set_launch_params(const void* body, std::size_t bytes) {
    g_params_lo = reinterpret_cast<std::uintptr_t>(body);
    g_params_hi = g_params_lo + bytes;
}

void stack_write(std::uintptr_t a, std::size_t size, unsigned flags, const void* caller_frame, const void* pc) {
    // Each frame's first two words are its caller's frame pointer and its return address. A kernel's own locals
    // never lie there (a GPU thread's local memory holds no return address a program can reach).
    auto f = reinterpret_cast<std::uintptr_t>(caller_frame);
    for (int depth = 0; depth < 4096 && f >= g_stack_lo && f < g_stack_hi; ++depth) {
        if (a < f + 2 * sizeof(void*) && f < a + size) {
            const rt::ThreadInfo& t = rt::current_thread();
            fatal("illegal-address",
                  std::string("Invalid __local__ ") + ((flags & kAtomic) ? "atomic" : "write") + " of size " +
                      std::to_string(size) + (size == 1 ? " byte" : " bytes") + "\n    at " + where(pc) +
                      " in kernel " + rt::kernel_name() + "\n    by thread " + dim_str(t.thread) + " in block " +
                      dim_str(t.block) + "\n    Address " + address_hex(a) +
                      " is a return address or saved frame pointer on this thread's stack, not a local variable: "
                      "past the end of a local array, or a pointer made to reach it",
                  700 /* cudaErrorIllegalAddress */);
        }
        const std::uintptr_t next = *reinterpret_cast<const std::uintptr_t*>(f);
        if (next <= f) break;
        f = next;
    }
}

void outside_access(std::uintptr_t a, std::size_t size, unsigned flags, const void* pc) {
    const bool read = !(flags & (kWrite | kAtomic));
    if (read && reach_inside(__start_emu_builtins, __stop_emu_builtins, a, size)) return;
    if (read && a >= g_params_lo && a < g_params_hi && size <= g_params_hi - a) return;
    if (read && reach_inside(loaded_segments().read_only, a, size)) return;
    if (in_registered(a, size) || rt::host_registered(reinterpret_cast<const void*>(a), size)) return;
    refuse(a, size, flags, pc);
}

}  // namespace emu::mc

namespace emu {

void register_device_range(const void* p, std::size_t bytes) {
    const rt::ApiLock lock(rt::api_mutex());
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    if (bytes) mc::registered_ranges()[a] = a + bytes;
}

void unregister_device_range(const void* p) {
    const rt::ApiLock lock(rt::api_mutex());
    mc::registered_ranges().erase(reinterpret_cast<std::uintptr_t>(p));
}

}  // namespace emu

namespace emu::detail {
bool register_device_variable(const void* p, unsigned long bytes) {
    register_device_range(p, bytes);
    return true;
}
bool register_device_section(const char* start, const char* stop) {
    if (start && stop > start) register_device_range(start, static_cast<std::size_t>(stop - start));
    return true;
}
}  // namespace emu::detail
