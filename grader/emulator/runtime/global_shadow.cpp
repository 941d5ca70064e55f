// Races in device (cudaMalloc) memory: between threads of a block with no barrier between them, and between blocks
// of one launch, which nothing orders (a launch boundary does).
//
// Device buffers can be large (a 4096 x 8192 fp32 tensor is 128 MiB), so the shadow is compact: one 16-byte cell per
// 4-byte granule, mapped with its allocation and only paid for where touched. A cell holds the last writer and a
// reader, each as a 32-bit stamp, a 16-bit thread-and-byte-mask and a 16-bit code site. The reader is the first
// one from an earlier block of the launch while there is one (whatever this block then does to those bytes races
// with it), else the readers of the current barrier interval. Keeping it also spares a store on every read of a
// buffer all blocks read (a weight vector).
//
// Stamps come from one counter that advances at every block start, every completed barrier and every completed
// __syncwarp, so one comparison places an earlier access: before this launch (ordered), in an earlier block of this
// launch (a race if it conflicts), in an earlier barrier interval of this block (ordered), or in the current one
// (a race unless it is the same thread, or the same warp with a __syncwarp since, or two threads that have both
// called __threadfence(): see fenced_pair).
//
// A byte mask per record keeps neighbouring 2-byte elements (bf16 rows) written by different threads apart. When
// two threads touch disjoint bytes of one granule, the newer record replaces the older: a race may then be missed,
// never invented.
#include <sys/mman.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <unordered_map>
#include <vector>

#include "emu/intrinsics_detail.hpp"
#include "memcheck.hpp"

namespace emu::mc {
namespace {

// tm: bits 0-9 the thread's linear index in its block, bits 12-15 the bytes of the granule the access touched;
// bit 10 marks an atomic writer (writer record) or several readers (reader record); bit 11: readers from several
// warps.
constexpr std::uint16_t kThread = 0x3ff, kFlagA = 0x400, kManyWarps = 0x800, kMask = 0xf000;

struct Rec {
    std::uint32_t stamp;  // 0: none
    std::uint16_t tm;
    std::uint16_t site;
};
struct Cell {
    Rec w;  // last writer
    Rec r;  // a reader of an earlier block of this launch, or the readers of the interval r.stamp belongs to
};
static_assert(sizeof(Cell) == 16, "two 8-byte records");

inline Cell& cell_at(void* shadow, std::size_t g) { return static_cast<Cell*>(shadow)[g]; }
std::size_t shadow_bytes(std::size_t bytes) { return (bytes + 3) / 4 * sizeof(Cell); }

struct Clock {
    std::uint32_t next = 1;
    std::uint32_t launch = 1, block = 1, interval = 1;  // first stamps of the running launch, block, barrier interval
    std::vector<std::uint32_t> warp;                    // per warp: its stamp after its last __syncwarp, or 0
    // Block index of each block start stamp of the running launch, to name the first block of a race.
    std::vector<std::pair<std::uint32_t, rt::Dim3>> blocks;
    bool threadfence = false;
    std::vector<unsigned char> fenced;  // per thread of the running block: it has called __threadfence()
};
Clock g_clock;

// Code addresses, 16 bits each in the shadow (id 0: unknown). A direct-mapped cache in front of the map.
struct Sites {
    std::vector<const void*> pcs{nullptr};
    std::unordered_map<const void*, std::uint16_t> ids;
    struct Slot {
        const void* pc = nullptr;
        std::uint16_t id = 0;
    } cache[1024];
};
Sites* const g_sites = new Sites;
Sites& sites() { return *g_sites; }

std::uint16_t site_of(const void* pc) {
    Sites& s = sites();
    Sites::Slot& slot =
        s.cache[(reinterpret_cast<std::uintptr_t>(pc) ^ (reinterpret_cast<std::uintptr_t>(pc) >> 10)) & 1023];
    if (slot.pc == pc) return slot.id;
    auto it = s.ids.find(pc);
    std::uint16_t id = 0;
    if (it != s.ids.end()) {
        id = it->second;
    } else if (s.pcs.size() < 0xffff) {
        id = static_cast<std::uint16_t>(s.pcs.size());
        s.pcs.push_back(pc);
        s.ids.emplace(pc, id);
    }
    slot = {pc, id};
    return id;
}

rt::Dim3 block_of(std::uint32_t stamp) {
    const auto& b = g_clock.blocks;
    auto it =
        std::upper_bound(b.begin(), b.end(), stamp,
                         [](std::uint32_t s, const std::pair<std::uint32_t, rt::Dim3>& e) { return s < e.first; });
    return it == b.begin() ? rt::Dim3{} : std::prev(it)->second;
}

std::uint32_t advance() { return ++g_clock.next; }

// How an earlier access with stamp s by thread `thread` relates to the running one.
enum class Rel { ordered, in_block, cross_block };

struct Me {
    std::uint32_t thread, warp, stamp;  // stamp: this warp's current stamp
};

// Two threads of a block that have both called __threadfence() may hand data over through a fence and an atomic
// (a lock taken with atomicCAS and released with atomicExch, CUDA by Example's Lock; a flag), which the stamps do not
// model: their accesses count as ordered, so a race between them may be missed, never invented. A thread that has not
// fenced is checked as before.
inline bool fenced_pair(std::uint32_t thread, const Me& me) {
    const auto& f = g_clock.fenced;
    return thread < f.size() && me.thread < f.size() && f[thread] && f[me.thread];
}

inline Rel relation(std::uint32_t s, std::uint32_t thread, bool others, bool many_warps, const Me& me) {
    if (s < g_clock.launch) return Rel::ordered;
    if (s < g_clock.block) return Rel::cross_block;
    if (s < g_clock.interval) return Rel::ordered;
    if (thread == me.thread && !others) return Rel::ordered;
    if (!many_warps && thread / 32 == me.warp && s < me.stamp) return Rel::ordered;  // a __syncwarp since
    if (fenced_pair(thread, me)) return Rel::ordered;
    return Rel::in_block;
}

void race(Hazard hz, Rel rel, const Rec& first, bool first_atomic, std::uint32_t first_thread, const Me& me,
          const void* pc, bool atomic, std::uintptr_t addr, std::size_t size) {
    const Race r{hz,
                 true,
                 rel == Rel::cross_block,
                 sites().pcs[first.site],
                 first_thread,
                 rel == Rel::cross_block ? block_of(first.stamp) : rt::Dim3{},
                 first_atomic,
                 pc,
                 atomic,
                 rel == Rel::in_block && first_thread != ~0u && first_thread / 32 == me.warp,
                 addr,
                 size};
    if (hz == Hazard::waw && !atomic && !first_atomic)
        note_waw_unless_same_value(r, reinterpret_cast<const void*>(addr));
    else note_race(r);
}

}  // namespace

void* global_shadow_create(std::size_t bytes, bool prefault) {
    if (bytes == 0) return nullptr;
    const std::size_t n = shadow_bytes(bytes);
    // Faulting a large shadow in page by page inside a kernel costs more than mapping it populated (measured: 0.2 s of
    // CPU per 512 MiB of shadow on the development VM). Large device buffers are normally used whole, so their shadow
    // is populated, up to 2 GiB in all. Small ones are not: a test's buffers often have slack the kernel never touches,
    // and populating those cost the 135 hidden tests of lesson 04 0.9 s of CPU in all. Host-visible memory is not.
    static std::size_t populated = 0;
    const bool populate = prefault && n >= (std::size_t(64) << 20) && populated + n <= (std::size_t(2) << 30);
    void* p = mmap(nullptr, n, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | (populate ? MAP_POPULATE : 0), -1, 0);
    if (p == MAP_FAILED) return nullptr;  // zero cells: no access recorded
    if (populate) populated += n;
    return p;
}

void global_shadow_destroy(void* shadow, std::size_t bytes) {
    if (shadow) munmap(shadow, shadow_bytes(bytes));
}

void global_clock_launch_begin() {
    Clock& c = g_clock;
    if (c.next > 0xf0000000u) {  // keep every stamp of a launch below 2^32: forget the past and start again
        global_shadow_reset_all();
        c.next = 1;
    }
    c.launch = c.block = c.interval = advance();
    c.blocks.clear();
    c.threadfence = false;
    const unsigned threads = rt::block_dim().x * rt::block_dim().y * rt::block_dim().z;
    c.warp.assign((threads + 31) / 32, 0);
    c.fenced.assign(threads, 0);
}

void global_clock_block_begin() {
    Clock& c = g_clock;
    c.block = c.interval = advance();
    std::fill(c.warp.begin(), c.warp.end(), 0);
    std::fill(c.fenced.begin(), c.fenced.end(), 0);
    c.blocks.emplace_back(c.block, rt::block_index());
}

void global_clock_barrier() { g_clock.interval = advance(); }

// grid.sync(): what every block did before it is ordered with what any block does after it, as if a new launch began
// (the block starts that follow name the blocks of later races).
void global_clock_grid_barrier() { g_clock.launch = g_clock.block = g_clock.interval = advance(); }

void global_clock_warp_sync(unsigned warp) {
    if (warp < g_clock.warp.size()) g_clock.warp[warp] = advance();
}

// The classic "last block" reduction orders blocks with __threadfence() and an atomic counter, which this checker
// does not model: in a launch that calls __threadfence(), races between blocks are not reported.
bool global_cross_block_suppressed() { return g_clock.threadfence; }

void global_shadow_check(void* shadow, std::uintptr_t begin, std::size_t off, std::size_t size, unsigned flags,
                         const void* pc) {
    if (!shadow) return;
    const rt::ThreadInfo& t = rt::current_thread();
    const Clock& clk = g_clock;
    Me me{t.linear, t.warp, 0};
    me.stamp = t.warp < clk.warp.size() ? std::max(clk.warp[t.warp], clk.interval) : clk.interval;
    const bool write = flags & kWrite;
    const bool atomic = flags & kAtomic;
    const std::uint16_t site = site_of(pc);
    const std::uintptr_t addr = begin + off;
    bool raced_raw = false, raced_war = false, raced_waw = false;

    const std::size_t end = off + size;
    for (std::size_t g = off / 4; g * 4 < end; ++g) {
        const std::size_t lo = std::max(off, g * 4) - g * 4, hi = std::min(end, g * 4 + 4) - g * 4;
        const std::uint16_t mask = static_cast<std::uint16_t>((((1u << hi) - 1) & ~((1u << lo) - 1)) << 12);
        Cell& c = cell_at(shadow, g);
        if (!write) {
            if (!raced_raw && (c.w.tm & mask)) {
                const Rel rel = relation(c.w.stamp, c.w.tm & kThread, false, false, me);
                if (rel != Rel::ordered) {
                    raced_raw = true;
                    race(Hazard::raw, rel, c.w, c.w.tm & kFlagA, c.w.tm & kThread, me, pc, false, addr, size);
                }
            }
            const std::uint32_t s = c.r.stamp;
            const Rec fresh{me.stamp, static_cast<std::uint16_t>(me.thread | mask), site};
            if (s < clk.launch || (s >= clk.block && s < clk.interval)) {
                c.r = fresh;
            } else if (s < clk.block) {
                if (!(c.r.tm & mask)) c.r = fresh;  // other bytes of the granule: keep the newer reader only
            } else if ((c.r.tm & mask) || (c.r.tm & kThread) == me.thread) {
                if ((c.r.tm & kThread) != me.thread) {
                    c.r.tm |= kFlagA;
                    if ((c.r.tm & kThread) / 32 != me.warp) c.r.tm |= kManyWarps;
                }
                c.r.tm |= mask;
                c.r.stamp = std::max(s, me.stamp);
            } else {
                c.r = fresh;  // other bytes of the granule, read by another thread: keep the newer reader only
            }
            continue;
        }
        if (!raced_waw && (c.w.tm & mask) && !(atomic && (c.w.tm & kFlagA))) {
            const Rel rel = relation(c.w.stamp, c.w.tm & kThread, false, false, me);
            if (rel != Rel::ordered) {
                raced_waw = true;
                race(Hazard::waw, rel, c.w, c.w.tm & kFlagA, c.w.tm & kThread, me, pc, atomic, addr, size);
            }
        }
        if (!raced_war && (c.r.tm & mask)) {
            const bool many = c.r.tm & kFlagA;
            const Rel rel = relation(c.r.stamp, c.r.tm & kThread, many, c.r.tm & kManyWarps, me);
            if (rel != Rel::ordered) {
                raced_war = true;
                const std::uint32_t first =
                    (c.r.tm & kThread) != me.thread || rel == Rel::cross_block ? c.r.tm & kThread : ~0u;
                race(Hazard::war, rel, c.r, false, first, me, pc, atomic, addr, size);
            }
        }
        const bool same = (c.w.tm & kThread) == me.thread && c.w.stamp >= clk.interval && c.w.stamp != 0;
        c.w = Rec{me.stamp,
                  static_cast<std::uint16_t>(me.thread | (atomic ? kFlagA : 0) | mask | (same ? c.w.tm & kMask : 0)),
                  site};
    }
}

}  // namespace emu::mc

namespace emu::detail {

void threadfence() {
    emu::mc::Clock& c = emu::mc::g_clock;
    c.threadfence = true;
    if (!emu::rt::g_in_kernel) return;
    const std::uint32_t t = emu::rt::current_thread().linear;
    if (t < c.fenced.size()) c.fenced[t] = 1;
}

}  // namespace emu::detail
