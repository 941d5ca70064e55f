// Device memory: every cudaMalloc-family allocation comes from one reserved address range, so a hook tells device
// memory from everything else with one comparison. Each allocation sits between guard zones; address space is
// never reused, so a freed range stays recognizable (use after cudaFree) and its pages go back to the system.
#include <execinfo.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <deque>
#include <utility>
#include <map>

#include "api_state.hpp"
#include "memcheck.hpp"
#include <emu/api.h>

namespace emu::mc {

namespace {

constexpr std::size_t kGuard = 256;  // also cudaMalloc's alignment
constexpr unsigned char kGuardByte = 0xfd;
constexpr std::size_t kMaxQuarantined = 1 << 16;
constexpr int kSiteFrames = 16;  // Thrust's allocations pass through a dozen of its frames

// Set for a program that includes Thrust (emu::allow_host_access_to_device_memory): its algorithms run on the host.
bool g_host_may_access_device = false;

struct Alloc {
    std::uintptr_t begin, end;              // the user's bytes
    std::uintptr_t chunk_begin, chunk_end;  // with the guards
    bool live;
    bool host_accessible;
    void* shadow;             // race-checker cells (global_shadow.cpp), released with the memory
    void* site[kSiteFrames];  // call stack of the allocation
    int site_frames;
};

struct Heap {
    std::map<std::uintptr_t, Alloc> allocs;  // by begin; live and quarantined
    std::deque<std::uintptr_t> quarantine;   // freed, oldest first
    std::uintptr_t next = 0, committed = 0;
    // The live allocations recent accesses hit, most recent first: a kernel touches a few buffers, in turns.
    static constexpr int kCache = 4;
    const Alloc* recent[kCache] = {};
};

std::size_t lead_gap(std::size_t reserved) { return std::min(reserved / 4, std::size_t(32) << 30); }

Heap& heap() {
    static Heap* h = [] {
        // Reserve as much as the address-space limit allows (a grading run may set RLIMIT_AS), at most 1 TiB, and keep
        // half of what could be had for everything else.
        std::size_t size = std::size_t(1) << 40;
        void* p = MAP_FAILED;
        while (size >= (std::size_t(1) << 28)) {
            p = mmap(nullptr, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
            if (p != MAP_FAILED) break;
            size /= 2;
        }
        auto* heap = new Heap;
        if (p == MAP_FAILED) return heap;  // every allocation will fail: cudaErrorMemoryAllocation
        if (size < (std::size_t(1) << 40)) {
            munmap(static_cast<char*>(p) + size / 2, size - size / 2);
            size /= 2;
        }
        set_heap_bounds(reinterpret_cast<std::uintptr_t>(p), reinterpret_cast<std::uintptr_t>(p) + size);
        // The first allocation starts a lead gap into the reserve, never at its start: the addresses just below
        // a buffer are then still inside the checked range (and unmapped), so a negative index is reported as out of
        // bounds. Without the gap, x[-300] on the first buffer landed in whatever the process had mapped below the
        // reserve and went unreported. A quarter of the reserve, at most 32 GiB: an `int` index times 4 or 8 bytes.
        heap->next = heap->committed = g_heap_lo + lead_gap(size);
        return heap;
    }();
    return *h;
}

std::uintptr_t page_up(std::uintptr_t v) {
    static const std::uintptr_t page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
    return (v + page - 1) / page * page;
}
std::uintptr_t page_down(std::uintptr_t v) {
    static const std::uintptr_t page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
    return v / page * page;
}

// The allocation whose chunk (bytes or guards) holds a, or the nearest ones around it.
const Alloc* containing(Heap& h, std::uintptr_t a) {
    auto it = h.allocs.upper_bound(a);
    if (it != h.allocs.end() && a >= it->second.chunk_begin) return &it->second;  // in the front guard
    if (it == h.allocs.begin()) return nullptr;
    --it;
    return a < it->second.chunk_end ? &it->second : nullptr;
}

const Alloc* first_allocation(Heap& h) { return h.allocs.empty() ? nullptr : &h.allocs.begin()->second; }

std::string site_of(const Alloc& al) {
    // The first frame outside the emulator is the program's cudaMalloc call.
    for (int i = 1; i < al.site_frames; ++i) {
        std::string s = rt::symbolize(al.site[i]);
        if (s.empty() || s.find("??") != std::string::npos || s.find("grader/emulator/runtime/") != std::string::npos ||
            s.find("grader/emulator/include/") != std::string::npos ||
            s.find("/thrust/") != std::string::npos)  // a device_vector's storage: the program's line that made it
            continue;
        if (s.find(':') == std::string::npos) continue;
        return s;
    }
    return "";
}

std::string access_head(const char* space, std::size_t size, unsigned flags, const void* pc) {
    const rt::ThreadInfo& t = rt::current_thread();
    return std::string("Invalid ") + space +
           ((flags & kAtomic)  ? " atomic"
            : (flags & kWrite) ? " write"
                               : " read") +
           " of size " + std::to_string(size) + (size == 1 ? " byte" : " bytes") + "\n    at " + where(pc) +
           " in kernel " + rt::kernel_name() + "\n    by thread " + dim_str(t.thread) + " in block " +
           dim_str(t.block) + "\n";
}

std::string alloc_desc(const Alloc& al) {
    std::string s = "an allocation at " + address_hex(al.begin) + " of " + std::to_string(al.end - al.begin) + " bytes";
    std::string site = site_of(al);
    if (!site.empty()) s += " made at " + site;
    return s;
}

}  // namespace

void global_access(std::uintptr_t a, std::size_t size, unsigned flags, const void* pc) {
    Heap& h = heap();
    const Alloc* al = nullptr;
    for (int k = 0; k < Heap::kCache; ++k) {
        const Alloc* c = h.recent[k];
        if (c && a >= c->begin && a + size <= c->end) {
            al = c;
            if (k) {
                std::swap(h.recent[k], h.recent[0]);
            }
            break;
        }
    }
    if (!al) {
        al = containing(h, a);
        if (al && al->live && a >= al->begin && a + size <= al->end) {
            for (int k = Heap::kCache - 1; k > 0; --k) h.recent[k] = h.recent[k - 1];
            h.recent[0] = al;
        }
    }
    const bool starts_inside = al && a >= al->begin && a < al->end;
    if (starts_inside && al->live && (flags & kNaturalAlign) && size > 1 && (a & (size - 1)) != 0) {
        fatal("misaligned",
              access_head("__global__", size, flags, pc) + "    Address " + address_hex(a) + " is misaligned: a " +
                  std::to_string(size) + "-byte access needs an address that is a multiple of " + std::to_string(size) +
                  "; this one is byte " + std::to_string(a - al->begin) + " of " + alloc_desc(*al) +
                  "\n    hint: a vector type (float4, a 16-byte struct) may be loaded only from an address aligned to "
                  "its "
                  "size; handle a misaligned start with scalar accesses until the address is aligned",
              716 /* cudaErrorMisalignedAddress */);
    }
    if (starts_inside && al->live && a + size <= al->end) {
        global_shadow_check(al->shadow, al->begin, a - al->begin, size, flags, pc);
        return;
    }

    std::string body = access_head("__global__", size, flags, pc);
    if (al && !al->live && a < al->end && a + size > al->begin) {
        fatal("use-after-free",
              body + "    Address " + address_hex(a) + " is inside " + alloc_desc(*al) +
                  " that was already released by cudaFree\n    hint: the buffer is used after cudaFree; free it only "
                  "after the last kernel that uses it (and a synchronization)",
              700 /* cudaErrorIllegalAddress */);
    }
    if (al && a + size > al->end && a < al->chunk_end && (starts_inside || a >= al->end)) {
        const std::uintptr_t past = a >= al->end ? a - al->end : 0;
        body += "    Address " + address_hex(a) + " is out of bounds" +
                (starts_inside ? " (the access runs past the end)" : "") + "\n    and is " + std::to_string(past) +
                " bytes after the end of " + alloc_desc(*al);
    } else if (al && a < al->begin) {
        body += "    Address " + address_hex(a) + " is out of bounds\n    and is " + std::to_string(al->begin - a) +
                " bytes before the start of " + alloc_desc(*al);
    } else if (const Alloc* first = first_allocation(h); first && a < first->chunk_begin) {
        al = first;  // in the lead gap (see heap())
        body += "    Address " + address_hex(a) + " is out of bounds\n    and is " + std::to_string(first->begin - a) +
                " bytes before the start of " + alloc_desc(*first) + ", the first allocation";
    } else {
        body += "    Address " + address_hex(a) + " is not inside any allocation (nor next to one)";
    }
    if (al && !al->live) body += " (already freed)";
    fatal("out-of-bounds",
          body +
              "\n    hint: an index reaches past the buffer; check the bounds guard (e.g. `if (i < n)`) and the row "
              "offset / stride arithmetic",
          700 /* cudaErrorIllegalAddress */);
}

// Writes the hooks never saw (g++ does not instrument the store of a struct returned by a call, such as
// `out[i] = __float2bfloat16(v)`; memset/memcpy calls in kernels) still land in a guard zone when they overrun a
// buffer: the guards are checked, and repaired, after every launch.
// Host code (outside kernels) touching device memory: on a real system the CPU cannot read cudaMalloc memory and
// the program crashes there; the emulator says why, then ends the program the same way.
void host_access(std::uintptr_t a, std::size_t size, unsigned flags, const void* pc) {
    Heap& h = heap();
    const Alloc* al = containing(h, a);
    if (al && al->live && (al->host_accessible || g_host_may_access_device) && a >= al->begin && a + size <= al->end)
        return;
    std::string body = std::string("Host code ") + ((flags & kWrite) ? "wrote " : "read ") + std::to_string(size) +
                       (size == 1 ? " byte" : " bytes") + " of device memory at " + where(pc) + "\n    Address " +
                       address_hex(a);
    if (!al) {
        body += " is not inside any allocation";
    } else if (!al->live) {
        body += " is inside " + alloc_desc(*al) + " that was already released by cudaFree";
    } else if (a < al->begin || a + size > al->end) {
        body += " is outside " + alloc_desc(*al);
    } else {
        body +=
            " is byte " + std::to_string(a - al->begin) + " of " + alloc_desc(*al) +
            ", GPU memory\n    hint: the CPU cannot access memory from cudaMalloc (a real program crashes here); copy "
            "it with cudaMemcpy, or allocate it with cudaMallocManaged";
    }
    rt::report({"host-access", body, rt::Severity::error});
    std::fflush(stderr);
    std::abort();
}

std::string global_location(std::uintptr_t a, std::size_t size) {
    const Alloc* al = containing(heap(), a);
    if (!al || a < al->begin) return "global memory at " + address_hex(a);
    return "global memory, bytes " + std::to_string(a - al->begin) + ".." + std::to_string(a - al->begin + size - 1) +
           " of " + alloc_desc(*al);
}

void global_shadow_reset_all() {
    for (auto& [begin, al] : heap().allocs) {
        if (!al.live || !al.shadow) continue;
        const std::size_t n = al.end - al.begin;
        global_shadow_destroy(al.shadow, n);
        al.shadow = global_shadow_create(n, false);
    }
}

void device_launch_end() {
    Heap& h = heap();
    for (auto& r : h.recent) r = nullptr;
    for (auto& [begin, al] : h.allocs) {
        if (!al.live) continue;
        auto* front = reinterpret_cast<unsigned char*>(al.chunk_begin);
        auto* back = reinterpret_cast<unsigned char*>(al.end);
        const std::size_t front_n = al.begin - al.chunk_begin, back_n = al.chunk_end - al.end;
        std::size_t first_back = back_n, last_front = front_n;
        for (std::size_t i = 0; i < back_n && first_back == back_n; ++i)
            if (back[i] != kGuardByte) first_back = i;
        for (std::size_t i = front_n; i-- > 0 && last_front == front_n;)
            if (front[i] != kGuardByte) last_front = i;
        if (first_back == back_n && last_front == front_n) continue;
        std::string where_ = first_back != back_n ? std::to_string(first_back) + " bytes after the end"
                                                  : std::to_string(front_n - last_front) + " bytes before the start";
        rt::report({"out-of-bounds",
                    std::string("Invalid __global__ write in kernel ") + rt::kernel_name() +
                        ", found after the launch\n    Memory " + where_ + " of " + alloc_desc(al) +
                        " was overwritten\n    (the write was not seen as it happened, so its thread and line are "
                        "unknown)\n    hint: a store past the end of the buffer; often a struct-valued store such as "
                        "`out[i] = __float2bfloat16(v)` or a memcpy/memset with an index or size too large",
                    rt::Severity::error});
        std::memset(front, kGuardByte, front_n);
        std::memset(back, kGuardByte, back_n);
    }
}

}  // namespace emu::mc

namespace emu {
void allow_host_access_to_device_memory() { mc::g_host_may_access_device = true; }
}  // namespace emu

// cuMemGetAddressRange (include/emu/driver_api.hpp): the live allocation that holds p.
bool emu_device_allocation_range(const void* p, void** base, std::size_t* bytes) {
    using namespace emu::mc;
    const emu::rt::ApiLock lock(emu::rt::api_mutex());
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    const Alloc* al = containing(heap(), a);
    if (!al || !al->live || a < al->begin || a >= al->end) return false;
    *base = reinterpret_cast<void*>(al->begin);
    *bytes = al->end - al->begin;
    return true;
}

namespace emu::rt {

void* device_alloc(std::size_t bytes, bool host_accessible) {
    using namespace emu::mc;
    const emu::rt::ApiLock lock(emu::rt::api_mutex());  // several host threads may allocate at once
    Heap& h = heap();
    if (g_heap_lo == 0) return nullptr;
    const std::uintptr_t chunk_begin = (h.next + kGuard - 1) / kGuard * kGuard;
    const std::uintptr_t begin = chunk_begin + kGuard;
    const std::uintptr_t end = begin + bytes;
    const std::uintptr_t chunk_end = (end + 2 * kGuard - 1) / kGuard * kGuard;
    if (end < begin || chunk_end > g_heap_hi) return nullptr;
    if (chunk_end > h.committed) {
        const std::uintptr_t upto = page_up(chunk_end);
        if (mprotect(reinterpret_cast<void*>(h.committed), upto - h.committed, PROT_READ | PROT_WRITE) != 0)
            return nullptr;
        h.committed = upto;
    }
    std::memset(reinterpret_cast<void*>(chunk_begin), kGuardByte, begin - chunk_begin);
    std::memset(reinterpret_cast<void*>(end), kGuardByte, chunk_end - end);
    Alloc al{begin, end, chunk_begin, chunk_end, true, host_accessible, global_shadow_create(bytes, !host_accessible),
             {},    0};
    al.site_frames = backtrace(al.site, kSiteFrames);
    h.allocs.emplace(begin, al);
    h.next = chunk_end;
    return reinterpret_cast<void*>(begin);
}

bool device_free(void* p) {
    using namespace emu::mc;
    const emu::rt::ApiLock lock(emu::rt::api_mutex());
    if (p == nullptr) return true;  // cudaFree(nullptr) succeeds
    Heap& h = heap();
    auto it = h.allocs.find(reinterpret_cast<std::uintptr_t>(p));
    if (it == h.allocs.end() || !it->second.live) return false;
    Alloc& al = it->second;
    al.live = false;
    global_shadow_destroy(al.shadow, al.end - al.begin);
    al.shadow = nullptr;
    for (auto& r : h.recent) r = nullptr;
    // Give the memory back; the addresses stay reserved (and unreadable) so a later use is recognized.
    const std::uintptr_t lo = page_up(al.begin), hi = page_down(al.end);
    if (hi > lo) {
        madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_DONTNEED);
        mprotect(reinterpret_cast<void*>(lo), hi - lo, PROT_NONE);
    }
    h.quarantine.push_back(al.begin);
    if (h.quarantine.size() > kMaxQuarantined) {
        h.allocs.erase(h.quarantine.front());
        h.quarantine.pop_front();
    }
    return true;
}

bool device_range_ok(const void* p, std::size_t bytes) {
    using namespace emu::mc;
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    Heap& h = heap();
    auto it = h.allocs.upper_bound(a);
    if (it == h.allocs.begin()) return false;
    --it;
    const Alloc& al = it->second;
    return al.live && a >= al.begin && a + bytes <= al.end && a + bytes >= a;
}

}  // namespace emu::rt
