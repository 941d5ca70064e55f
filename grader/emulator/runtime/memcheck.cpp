// Shadow state for the __shared__ arena: races between barriers and reads of bytes nothing wrote; plus the
// engine-facing entry points (launch/block begin and end, atomics) and the message helpers.
//
// One shadow cell per arena byte records the last writer and the readers of the current barrier interval, tagged
// with the block execution (block_serial) they belong to: a cell from another block counts as empty, so nothing is
// cleared between blocks. Two accesses by different threads conflict unless a barrier separates them (the block
// epoch changed), or they come from one warp with a __syncwarp between them (the warp epoch changed), or both are
// atomic. Races and uninitialized reads are collected per pair of code addresses and reported at the end of the
// launch with a hazard count; they do not stop the kernel (a GPU would not notice either).
#include <execinfo.h>
#include <sys/mman.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "emu/shared.hpp"
#include "memcheck.hpp"

namespace emu::mc {

std::uint64_t g_hook_calls = 0;

namespace {

enum : std::uint8_t {
    kWritten = 1,       // a writer is recorded
    kAtomicWriter = 2,  // ... and it was an atomic
    kRead = 4,          // a reader is recorded for the interval repoch
    kManyReaders = 8,   // more than one thread read in that interval
    kManyWarps = 16,    // ... from more than one warp
    kUnseenWrite = 32,  // the bytes changed although no hooked write reached them (see shadow_check)
};

constexpr std::uint32_t kNone = ~0u;

struct Cell {
    std::uint64_t serial;  // block execution the fields describe
    const void* wpc;
    const void* rpc;
    std::uint32_t wthread, wepoch, wwepoch;
    std::uint32_t rthread, rthread2, repoch, rwepoch;  // first reader, another reader, interval, latest warp epoch
    std::uint8_t flags;
};

Cell* g_cells = nullptr;  // set by on_launch_begin, before any shared access

Cell* cells() {
    static Cell* c = [] {
        // Arena size is fixed by shared_arena.cpp; the shadow covers the whole mapped range.
        std::size_t n = g_arena_hi - g_arena_lo;
        void* p =
            mmap(nullptr, n * sizeof(Cell), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) {
            std::fputs("emu: cannot map shadow memory\n", stderr);
            std::abort();
        }
        return static_cast<Cell*>(p);  // zero: serial 0 is never a block's serial
    }();
    return c;
}

struct RaceKey {
    Hazard hazard;
    bool global, cross_block;
    const void* first_pc;
    const void* second_pc;
    bool operator==(const RaceKey& o) const {
        return hazard == o.hazard && global == o.global && cross_block == o.cross_block && first_pc == o.first_pc &&
               second_pc == o.second_pc;
    }
};
struct RaceKeyHash {
    std::size_t operator()(const RaceKey& k) const {
        return std::hash<const void*>()(k.first_pc) * 31 + std::hash<const void*>()(k.second_pc) * 7 +
               static_cast<std::size_t>(k.hazard) * 3 + k.cross_block;
    }
};

struct RaceRecord {
    std::uint64_t count = 0;
    const void* second_at = nullptr;  // the second access's code address, attributed to the student's code
    std::string first_thread, second_thread, block, location;
    bool first_atomic = false, second_atomic = false, same_warp = false;
    std::size_t order = 0;
};

struct UninitRecord {
    std::uint64_t count = 0;
    const void* at = nullptr;
    std::string thread, block, location;
    std::size_t size = 0;
    std::size_t order = 0;
};

struct Collected {
    std::unordered_map<RaceKey, RaceRecord, RaceKeyHash> races;
    std::unordered_map<const void*, UninitRecord> uninit;
    std::size_t next_order = 0;
};

Collected& collected() {
    static Collected* c = new Collected;
    return *c;
}

std::string location_of(std::size_t off, std::size_t size) {
    SharedVarInfo v;
    bool inside = false;
    if (!shared_var_at(off, &v, &inside)) return "__shared__ memory";
    const std::string name =
        std::string(v.name) == "dynamic shared memory" ? "dynamic shared memory" : std::string("__shared__ ") + v.name;
    if (off == v.offset && size == v.size) return name;
    return name + " (bytes " + std::to_string(off - v.offset) + ".." + std::to_string(off - v.offset + size - 1) +
           " of " + std::to_string(v.size) + ")";
}

RaceKey key_of(const Race& r) { return RaceKey{r.hazard, r.global, r.cross_block, r.first_pc, r.pc}; }

// `second_at` is the attributed address of the second access (attribute() needs that access's stack, so it is
// computed while the access is checked; nullptr when the record already exists).
void record_race(const Race& r, const rt::ThreadInfo& second, const void* second_at) {
    Collected& c = collected();
    RaceRecord& rec = c.races[key_of(r)];
    rec.same_warp = rec.count == 0 ? r.same_warp : rec.same_warp && r.same_warp;  // the hint names the barrier all need
    if (rec.count++ == 0) {
        rec.second_at = second_at ? second_at : r.pc;
        rec.first_thread = r.first_thread == kNone ? "another thread" : "thread " + thread_str(r.first_thread);
        if (r.cross_block) rec.first_thread += " in block " + dim_str(r.first_block);
        rec.second_thread = "thread " + dim_str(second.thread);
        rec.block = dim_str(second.block);
        rec.location = r.global ? global_location(r.addr, r.size) : location_of(r.addr, r.size);
        rec.first_atomic = r.first_atomic;
        rec.second_atomic = r.atomic;
        rec.order = c.next_order++;
    }
}

// The write-write hazard waiting for its store (at most one: every write settles the previous one first).
struct PendingWaw {
    Race race;
    rt::ThreadInfo second;
    const void* second_at;
    const unsigned char* mem;
    unsigned char before[64];
};
PendingWaw g_pending;

}  // namespace

bool g_waw_pending = false;
std::uint32_t g_waw_thread = 0;

void note_race(const Race& r) {
    const bool known = collected().races.count(key_of(r)) != 0;
    record_race(r, rt::current_thread(), known ? nullptr : attribute(r.pc));
}

void note_waw_unless_same_value(const Race& r, const void* mem) {
    if (g_waw_pending) settle_waw();
    if (r.size > sizeof g_pending.before) {  // an aggregate copy too large to keep: reported as it is
        note_race(r);
        return;
    }
    g_pending.race = r;
    g_pending.second = rt::current_thread();
    g_pending.second_at = collected().races.count(key_of(r)) ? nullptr : attribute(r.pc);
    g_pending.mem = static_cast<const unsigned char*>(mem);
    std::memcpy(g_pending.before, mem, r.size);
    g_waw_pending = true;
    g_waw_thread = g_pending.second.linear;
}

void settle_waw() {
    g_waw_pending = false;
    if (std::memcmp(g_pending.before, g_pending.mem, g_pending.race.size) != 0)
        record_race(g_pending.race, g_pending.second, g_pending.second_at);
}

namespace {

void note_uninit(const void* pc, std::size_t off, std::size_t size) {
    Collected& c = collected();
    UninitRecord& r = c.uninit[pc];
    if (r.count++ == 0) {
        r.at = attribute(pc);
        r.thread = dim_str(rt::current_thread().thread);
        r.block = dim_str(rt::current_thread().block);
        r.location = location_of(off, size);
        r.size = size;
        r.order = c.next_order++;
    }
}

const char* access_name(Hazard hz, bool first, bool atomic) {
    if (atomic) return "Atomic";
    if (hz == Hazard::waw) return "Write";
    return (hz == Hazard::raw) == first ? "Write" : "Read";
}

std::string race_hint(Hazard hz, bool same_warp) {
    const char* barrier = same_warp ? "a __syncwarp() (or __syncthreads())" : "a __syncthreads()";
    switch (hz) {
        case Hazard::raw:
            return std::string(barrier) +
                   " between the write and the read is missing: the reading thread may run "
                   "before the writing one";
        case Hazard::war:
            return std::string(barrier) +
                   " between the read and the write is missing: the value is overwritten "
                   "before every thread has read it";
        case Hazard::waw:
            return std::string(
                       "several threads write different values to the same location in one barrier interval; let one "
                       "thread write "
                       "it (e.g. if (threadIdx.x == 0)), give each thread its own slot, or put ") +
                   barrier + " between the writes";
    }
    return "";
}

std::string cross_block_hint(Hazard hz) {
    const char* what = hz == Hazard::waw   ? "two blocks write different values to the same location"
                       : hz == Hazard::raw ? "one block reads what another block of the same launch writes"
                                           : "one block overwrites what another block of the same launch reads";
    if (rt::launch_is_cooperative())
        return std::string(what) +
               " with no grid.sync() between the two accesses, so the result depends on which block runs first. Put a "
               "grid.sync() between the write and the accesses of other blocks (every block must reach it), or give "
               "each block its own part of the buffer";
    return std::string(what) +
           "; no barrier orders the blocks of a launch (they run in any order, or at the same time), so the result "
           "depends on which runs first. Give each block its own part of the buffer (check the row offset and the "
           "index arithmetic), or read the results in a later launch (or combine them with atomics)";
}

}  // namespace

std::string address_hex(std::uintptr_t a) {
    char b[32];
    std::snprintf(b, sizeof b, "0x%" PRIxPTR, a);
    return b;
}

std::string dim_str(const rt::Dim3& d) {
    return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

std::string thread_str(unsigned linear) {
    const rt::Dim3 b = rt::block_dim();
    rt::Dim3 d;
    d.x = linear % b.x;
    d.y = (linear / b.x) % b.y;
    d.z = linear / (b.x * b.y);
    return dim_str(d);
}

namespace {

// Code of the emulator's headers (intrinsics like __ldg, the cub shim, the bf16/half operators) and of the C++
// library is not where a student looks for a bug.
bool library_location(const std::string& loc) {
    return loc.find("grader/emulator/include/") != std::string::npos ||
           loc.find("grader/emulator/runtime/") != std::string::npos ||
           loc.find("/usr/include/") != std::string::npos || loc.find("/usr/lib/") != std::string::npos;
}

}  // namespace

// Called while the access is being checked (its stack is live): the first caller outside library code. Elsewhere
// (pc not on the current stack) it returns pc.
const void* attribute(const void* pc) {
    if (!pc || !library_location(rt::symbolize(pc))) return pc;
    void* frames[48];
    const int n = backtrace(frames, 48);
    int k = 0;
    while (k < n && frames[k] != pc) ++k;
    for (int j = k + 1; j < n; ++j) {
        const std::string loc = rt::symbolize(frames[j]);
        if (!library_location(loc) && loc.find(':') != std::string::npos && loc.rfind("pc ", 0) != 0) return frames[j];
    }
    return pc;
}

std::string where(const void* pc) { return rt::symbolize(attribute(pc)); }

void fatal(const char* kind, const std::string& body, int cuda_error) {
    rt::report({kind, body, rt::Severity::error});
    rt::abort_launch(cuda_error);
}

void shared_access(std::uintptr_t a, std::size_t size, unsigned flags, const void* pc) {
    const std::size_t off = a - g_arena_lo;
    const rt::ThreadInfo& t = rt::current_thread();
    auto head = [&] {
        return std::string("Invalid __shared__ ") +
               ((flags & kAtomic)  ? "atomic"
                : (flags & kWrite) ? "write"
                                   : "read") +
               " of size " + std::to_string(size) + (size == 1 ? " byte" : " bytes") + "\n    at " + where(pc) +
               " in kernel " + rt::kernel_name() + "\n    by thread " + dim_str(t.thread) + " in block " +
               dim_str(t.block) + "\n";
    };
    if ((flags & kNaturalAlign) && size > 1 && (a & (size - 1)) != 0) {
        fatal("misaligned",
              head() + "    Address is misaligned: a " + std::to_string(size) +
                  "-byte access needs an address that is a multiple of " + std::to_string(size) + " (" +
                  location_of(off, size) +
                  ")\n    hint: a vector type (float4, a 16-byte struct) may be accessed only at an address aligned to "
                  "its size",
              716 /* cudaErrorMisalignedAddress */);
    }
    if (!shared_addressable(off, size)) {
        SharedVarInfo v;
        bool inside = false;
        std::string desc;
        const bool dyn_part = off >= shared_dynamic_offset();
        if (dyn_part) {
            desc = "    Address is " + std::to_string(off - shared_dynamic_offset()) +
                   " bytes into dynamic shared memory, but the launch requested only " +
                   std::to_string(shared_dynamic_size()) + " bytes (the third <<<>>> argument)";
        } else if (shared_var_at(off, &v, &inside)) {
            const std::size_t end = v.offset + v.size;
            desc = inside ? "    The access runs past the end of __shared__ " + std::string(v.name) + " (" +
                                std::to_string(v.size) + " bytes)"
                          : "    Address is " + std::to_string(off - end) + " bytes past the end of __shared__ " +
                                std::string(v.name) + " (" + std::to_string(v.size) + " bytes)";
        } else {
            desc = "    Address is not inside any __shared__ variable";
        }
        fatal("out-of-bounds",
              head() + desc + "\n    hint: an index reaches past the shared array; check its size and the index range",
              700 /* cudaErrorIllegalAddress */);
    }
    shadow_check(off, size, flags, pc);
}

void shadow_check(std::size_t off, std::size_t size, unsigned flags, const void* pc) {
    Cell* cs = g_cells;
    const rt::ThreadInfo& t = rt::current_thread();
    const std::uint64_t serial = rt::block_serial();
    const std::uint32_t epoch = rt::block_epoch();
    const std::uint32_t me = t.linear;
    const unsigned warp = t.warp;
    const std::uint32_t wepoch = rt::warp_epoch(warp);
    const bool write = flags & kWrite;
    const bool atomic = flags & kAtomic;
    const bool reads = !write || (atomic && !(flags & kAtomicStore));
    // Aggregate copies may cover padding nothing writes: for accesses wider than 8 bytes, only a read of which no
    // byte was written counts as uninitialized.
    const bool strict_init = size <= 8;

    bool raced_raw = false, raced_war = false, raced_waw = false;
    std::size_t unwritten = 0;
    for (std::size_t i = off; i < off + size; ++i) {
        Cell& c = cs[i];
        if (c.serial != serial) {
            c = Cell{};
            c.serial = serial;
        }
        const bool writer_other =
            (c.flags & kWritten) && !(c.flags & kUnseenWrite) && c.wthread != me && c.wepoch == epoch;
        const bool writer_same_warp = c.wthread / 32 == warp;
        const bool writer_ordered = writer_same_warp && c.wwepoch < wepoch;
        const bool both_atomic = atomic && (c.flags & kAtomicWriter);
        if (reads && !(c.flags & kWritten) && static_cast<unsigned char>(detail::g_shared_arena[i]) != kSharedGarbage) {
            // g++'s instrumentation misses one kind of store: the result of a call returning a struct (a __nv_bfloat16,
            // a float4 from make_float4 …) written straight into memory. The byte no longer holds the garbage every
            // block starts with, so something wrote it: count it as written by an unknown thread, never as a race.
            c.flags |= kWritten | kUnseenWrite;
            c.wthread = kNone;
            c.wepoch = 0;
            c.wwepoch = 0;
            c.wpc = nullptr;
        }
        if (reads) {
            if (!(c.flags & kWritten)) {
                ++unwritten;
            } else if (!atomic && writer_other && !writer_ordered && !raced_raw) {
                // (an atomic read-modify-write is checked once, as a write, below)
                raced_raw = true;
                note_race(Race{Hazard::raw,
                               false,
                               false,
                               c.wpc,
                               c.wthread,
                               {},
                               (c.flags & kAtomicWriter) != 0,
                               pc,
                               atomic,
                               writer_same_warp,
                               off,
                               size});
            }
        }
        if (write) {
            if (writer_other && !writer_ordered && !both_atomic && !raced_waw) {
                raced_waw = true;
                const Race r{
                    Hazard::waw,      false, false, c.wpc, c.wthread, {}, (c.flags & kAtomicWriter) != 0, pc, atomic,
                    writer_same_warp, off,   size};
                if (atomic || (c.flags & kAtomicWriter)) note_race(r);
                else note_waw_unless_same_value(r, detail::g_shared_arena + off);
            }
            if ((c.flags & kRead) && c.repoch == epoch && !raced_war) {
                const bool other = c.rthread != me || (c.flags & kManyReaders);
                const bool readers_same_warp = !(c.flags & kManyWarps) && c.rthread / 32 == warp;
                if (other && !(readers_same_warp && c.rwepoch < wepoch)) {
                    raced_war = true;
                    const std::uint32_t other_reader = c.rthread != me ? c.rthread : c.rthread2;
                    note_race(Race{Hazard::war,
                                   false,
                                   false,
                                   c.rpc,
                                   other_reader,
                                   {},
                                   false,
                                   pc,
                                   atomic,
                                   readers_same_warp,
                                   off,
                                   size});
                }
            }
            c.flags = static_cast<std::uint8_t>((c.flags & ~(kAtomicWriter | kUnseenWrite)) | kWritten |
                                                (atomic ? kAtomicWriter : 0));
            c.wthread = me;
            c.wepoch = epoch;
            c.wwepoch = wepoch;
            c.wpc = pc;
        } else if (!(c.flags & kRead) || c.repoch != epoch) {
            c.flags = static_cast<std::uint8_t>((c.flags & ~(kManyReaders | kManyWarps)) | kRead);
            c.rthread = me;
            c.rthread2 = kNone;
            c.repoch = epoch;
            c.rwepoch = wepoch;
            c.rpc = pc;
        } else if (c.rthread != me) {
            c.flags |= kManyReaders;
            if (c.rthread / 32 != warp) c.flags |= kManyWarps;
            c.rthread2 = me;
            c.rwepoch = std::max(c.rwepoch, wepoch);
        } else {
            c.rwepoch = std::max(c.rwepoch, wepoch);
        }
    }
    if (unwritten && (strict_init || unwritten == size) && !(flags & kMaybeRead)) note_uninit(pc, off, size);
}

void shadow_launch_begin() {
    Collected& c = collected();
    c.races.clear();
    c.uninit.clear();
    c.next_order = 0;
}

void shadow_launch_end() {
    if (g_waw_pending) settle_waw();
    Collected& c = collected();
    // Merge what different code addresses of the same source lines found (one line may compile to several accesses).
    struct Out {
        std::size_t order;
        std::uint64_t count;
        std::string kind, text;
        bool same_warp = false;
        Hazard hazard = Hazard::raw;
        bool cross_block = false;
    };
    // Races between blocks are not reported for a launch that called __threadfence(): see global_shadow.cpp.
    const bool drop_cross = global_cross_block_suppressed();
    std::map<std::tuple<int, bool, std::string, std::string>, Out> merged;
    for (const auto& [key, r] : c.races) {
        if (key.cross_block && drop_cross) continue;
        const std::string a = where(key.first_pc), b = where(r.second_at);
        auto k = std::make_tuple(static_cast<int>(key.hazard), key.cross_block, a, b);
        auto it = merged.find(k);
        if (it != merged.end()) {
            it->second.count += r.count;
            it->second.order = std::min(it->second.order, r.order);
            if (!r.same_warp) it->second.same_warp = false;
            continue;
        }
        std::string text = std::string("Race reported between ") + access_name(key.hazard, true, r.first_atomic) +
                           " access at " + a + " by " + r.first_thread + "\n    and " +
                           access_name(key.hazard, false, r.second_atomic) + " access at " + b + " by " +
                           r.second_thread + " in block " + r.block + "\n    on " + r.location;
        merged.emplace(k, Out{r.order, r.count, "race", text, r.same_warp, key.hazard, key.cross_block});
    }
    for (const auto& [pc, r] : c.uninit) {
        const std::string a = where(r.at);
        auto k = std::make_tuple(99, false, a, std::string());
        auto it = merged.find(k);
        if (it != merged.end()) {
            it->second.count += r.count;
            continue;
        }
        std::string text = "Uninitialized __shared__ memory read of size " + std::to_string(r.size) +
                           (r.size == 1 ? " byte" : " bytes") + "\n    at " + a + " by thread " + r.thread +
                           " in block " + r.block + "\n    on " + r.location +
                           "\n    hint: nothing in this block wrote these bytes before the read; shared memory starts "
                           "undefined in every block, so check that the writes cover every element read and that a "
                           "barrier separates them";
        merged.emplace(k, Out{r.order, r.count, "uninitialized-shared", text, false, Hazard::raw});
    }
    std::vector<Out> outs;
    for (auto& [k, o] : merged) outs.push_back(std::move(o));
    std::sort(outs.begin(), outs.end(), [](const Out& x, const Out& y) { return x.order < y.order; });
    for (Out& o : outs) {
        if (o.kind == "race")
            o.text += "\n    hint: " + (o.cross_block ? cross_block_hint(o.hazard) : race_hint(o.hazard, o.same_warp));
        const char* unit =
            o.kind == "race" ? (o.count == 1 ? " hazard" : " hazards") : (o.count == 1 ? " read" : " reads");
        rt::report({o.kind,
                    o.text + "\n    [" + std::to_string(o.count) + unit + " in kernel " + rt::kernel_name() + "]",
                    rt::Severity::error});
    }
    shadow_launch_begin();
}

}  // namespace emu::mc

namespace emu::rt {

void on_launch_begin(std::size_t dynamic_shared_bytes) {
    mc::shared_launch_begin(dynamic_shared_bytes);
    mc::g_cells = mc::cells();
    mc::shadow_launch_begin();
    mc::global_clock_launch_begin();
    if (prof::g_on) prof::on_launch_begin(dynamic_shared_bytes);
}

void on_block_begin() {
    if (mc::g_waw_pending) mc::settle_waw();
    mc::shared_block_begin();
    mc::global_clock_block_begin();
    if (prof::g_on) prof::on_block_begin();
}

void on_block_suspend(SuspendedMemory& out) {
    if (mc::g_waw_pending) mc::settle_waw();
    out.bytes.clear();
    out.shadow.clear();
    const auto* arena = reinterpret_cast<const unsigned char*>(mc::g_arena_lo);
    const auto* shadow = reinterpret_cast<const unsigned char*>(mc::cells());
    for (const auto& [off, size] : mc::shared_live_ranges()) {
        out.bytes.insert(out.bytes.end(), arena + off, arena + off + size);
        out.shadow.insert(out.shadow.end(), shadow + off * sizeof(mc::Cell), shadow + (off + size) * sizeof(mc::Cell));
    }
}

void on_block_resume(const SuspendedMemory& in) {
    if (mc::g_waw_pending) mc::settle_waw();
    auto* arena = reinterpret_cast<unsigned char*>(mc::g_arena_lo);
    auto* shadow = reinterpret_cast<unsigned char*>(mc::cells());
    std::size_t b = 0;
    for (const auto& [off, size] : mc::shared_live_ranges()) {
        std::copy(in.bytes.begin() + b, in.bytes.begin() + b + size, arena + off);
        std::copy(in.shadow.begin() + b * sizeof(mc::Cell), in.shadow.begin() + (b + size) * sizeof(mc::Cell),
                  shadow + off * sizeof(mc::Cell));
        b += size;
    }
    mc::global_clock_block_begin();
}

void on_grid_barrier() { mc::global_clock_grid_barrier(); }

void on_launch_end() {
    if (prof::g_on) prof::on_launch_end();
    mc::shadow_launch_end();
    mc::device_launch_end();
}

void on_barrier() {
    mc::global_clock_barrier();
    if (prof::g_on) prof::on_barrier();
}
void on_warp_sync(unsigned warp) { mc::global_clock_warp_sync(warp); }

void on_atomic_access(const void* addr, std::size_t bytes, const void* pc) {
    if (!g_in_kernel) return;
    mc::access(addr, bytes, mc::kAtomic | mc::kWrite | mc::kNaturalAlign, pc);
}

}  // namespace emu::rt
