// The profiler's counters: groups the accesses of a warp into warp-level requests, as the GPU's load/store unit sees
// them, then counts sectors, bank wavefronts, barriers and collectives per launch.
//
// Grouping. A block's threads run one after another until each blocks (engine.hpp), so the 32 lanes of a warp do
// not execute an access together here. But between two barriers every lane runs the same code: the k-th time lane
// L reaches access site P is the same instruction instance as the k-th time lane 0 reaches it. A request is
// therefore keyed by (warp, site, k), with k counted per thread and reset at every __syncthreads (where all lanes
// are at the same point again). Lanes that skip a site (a branch) simply do not join its request, so a request
// with fewer lanes than the warp has is a sign of divergence at warp level.
#include <emu/profile.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <unordered_map>

#include "api_state.hpp"
#include "engine.hpp"
#include "memcheck.hpp"
#include "profile.hpp"

namespace emu::prof {

namespace {

std::string g_dir;

bool start() {
    const char* d = std::getenv("EMU_PROFILE");
    if (!d || !*d) return false;
    g_dir = d;
    return true;
}

}  // namespace

bool g_on = start();
std::string profile_dir() { return g_dir; }

std::string site(const void* pc) {
    const std::string w = mc::where(pc);
    const auto slash = w.rfind('/');
    return slash == std::string::npos ? w : w.substr(slash + 1);
}

unsigned request_sectors(const Request& r) {
    std::uint64_t s[32 * 4];
    unsigned n = 0;
    for (unsigned l = 0; l < 32; ++l) {
        if (!(r.mask >> l & 1u)) continue;
        const std::uint64_t first = r.addr[l] / 32, last = (r.addr[l] + r.size - 1) / 32;
        for (std::uint64_t x = first; x <= last && n < 32 * 4; ++x) s[n++] = x;
    }
    std::sort(s, s + n);
    return static_cast<unsigned>(std::unique(s, s + n) - s);
}

unsigned request_lines(const Request& r) {
    std::uint64_t s[32 * 2];
    unsigned n = 0;
    for (unsigned l = 0; l < 32; ++l) {
        if (!(r.mask >> l & 1u)) continue;
        const std::uint64_t first = r.addr[l] / 128, last = (r.addr[l] + r.size - 1) / 128;
        for (std::uint64_t x = first; x <= last && n < 32 * 2; ++x) s[n++] = x;
    }
    std::sort(s, s + n);
    return static_cast<unsigned>(std::unique(s, s + n) - s);
}

unsigned ideal_sectors(const Request& r) {
    const unsigned bytes = static_cast<unsigned>(__builtin_popcount(r.mask)) * r.size;
    return (bytes + 31) / 32;
}

namespace {

// Lanes served together: 32 for accesses up to 4 bytes, 16 for 8 bytes, 8 for 16 bytes (128 bytes per wavefront).
unsigned phase_lanes(unsigned size) { return size <= 4 ? 32 : size <= 8 ? 16 : 8; }

unsigned phase_mask(unsigned first, unsigned per) { return per == 32 ? ~0u : ((1u << per) - 1) << first; }

}  // namespace

unsigned shared_wavefronts(const Request& r) {
    const unsigned per = phase_lanes(r.size);
    unsigned total = 0;
    for (unsigned p = 0; p < 32; p += per) {
        if (!(r.mask & phase_mask(p, per))) continue;
        // Distinct 4-byte words per bank in this phase; the wavefronts needed are the largest count. Lanes naming the
        // same word are served by one (a broadcast).
        std::uintptr_t words[32][32];
        unsigned count[32] = {};
        for (unsigned l = p; l < p + per; ++l) {
            if (!(r.mask >> l & 1u)) continue;
            for (std::uintptr_t w = r.addr[l] / 4; w <= (r.addr[l] + r.size - 1) / 4; ++w) {
                const unsigned b = w % 32;
                bool seen = false;
                for (unsigned i = 0; i < count[b]; ++i) seen |= words[b][i] == w;
                if (!seen && count[b] < 32) words[b][count[b]++] = w;
            }
        }
        total += *std::max_element(count, count + 32);
    }
    return total;
}

unsigned shared_ideal_wavefronts(const Request& r) {
    const unsigned per = phase_lanes(r.size);
    unsigned n = 0;
    for (unsigned p = 0; p < 32; p += per) n += (r.mask & phase_mask(p, per)) != 0;
    return n;
}

namespace {

struct Key {
    const void* pc;
    std::uint32_t warp, occ;
    bool operator==(const Key& o) const { return pc == o.pc && warp == o.warp && occ == o.occ; }
};
struct KeyHash {
    std::size_t operator()(const Key& k) const {
        return std::hash<const void*>()(k.pc) ^ (std::size_t(k.warp) * 0x9e3779b97f4a7c15ull) ^
               (std::size_t(k.occ) << 20);
    }
};

struct State {
    LaunchStats s;
    std::unordered_map<Key, std::uint32_t, KeyHash> open;                 // requests of the current barrier interval
    std::vector<Request> pending;                                         // in the order they were first made
    std::vector<std::vector<std::pair<const void*, std::uint32_t>>> occ;  // per thread: site -> times reached
    struct LastLoad {
        std::uintptr_t addr = 0;
        std::size_t size = 0;
    };
    std::vector<LastLoad> last_load;                          // per thread, since its last store
    std::unordered_map<const void*, const void*> attributed;  // raw pc -> itself, or nullptr: library code, walk
    std::unordered_map<const void*, std::size_t> line_of;     // attributed pc -> index in s.lines
    bool first_block = false;
    unsigned last_load_phase = 0;  // 1 + the last barrier interval of the first block counted in load_phases
    // The launch's second block is the warm one (an SM's later blocks find the shared data in L1, profile_l1.cpp):
    // its barrier intervals whose loads miss L1 are the round trips beyond L1 (miss_phases).
    bool warm_block = false;
    unsigned first_miss_phases = 0, warm_miss_phases = 0;
    // Per warp, in the current barrier interval: its shuffles and votes so far (a request's segment), and the round
    // trips beyond L1 it made (segments with a load that missed L1; `last` is 1 + the last one counted).
    struct WarpTrips {
        unsigned collectives = 0, last = 0, trips = 0;
    };
    std::vector<WarpTrips> warp_trips;
    std::uint64_t serial = 0;  // of the block whose requests are open
    unsigned interval = 0;
    // the next launch's description (emu::profile_shape)
    std::string next_label;
    double next_scale = 0, next_min = 0;
    // registers and shared memory by kernel, from nvcc -Xptxas -v (EMU_PROFILE_PTXAS: lines "kernel regs smem")
    std::unordered_map<std::string, std::pair<unsigned, std::size_t>> ptxas;
    // the same per template instance (instance_key): "rmsnorm_cached_kernel<256, 4>"
    std::unordered_map<std::string, std::pair<unsigned, std::size_t>> ptxas_instance;
    bool ptxas_loaded = false;
    // The launch's template instance is found from the code of its accesses (resolve_instance); until then, and
    // where it is never found, the kernel name's largest counts stand.
    bool instance_resolved = false;
    unsigned resolve_tries = 0;
};

State& st() {
    static State* s = new State;  // never destroyed: a launch may run from a static destructor
    return *s;
}

// "void (anonymous namespace)::k<256, 4>(float const*, int)" -> "k<256,4>": the function's own name with its
// template arguments, as both g++'s symbols and nvcc's (demangled) ptxas lines spell them.
std::string instance_key(const std::string& name) {
    std::string s = name;
    if (!s.empty() && s.back() == ')') {  // the parameter list
        int depth = 0;
        for (std::size_t i = s.size(); i-- > 0;) {
            if (s[i] == ')') ++depth;
            if (s[i] == '(' && --depth == 0) {
                s.erase(i);
                break;
            }
        }
    }
    // The qualifiers and a return type end at the last "::" or space outside the template arguments.
    std::size_t start = 0;
    int depth = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '<') ++depth;
        else if (s[i] == '>') --depth;
        else if (depth == 0 && s[i] == ' ') start = i + 1;
        else if (depth == 0 && s[i] == ':' && i + 1 < s.size() && s[i + 1] == ':') start = i + 2, ++i;
    }
    std::string out;
    for (std::size_t i = start; i < s.size(); ++i)
        if (s[i] != ' ') out += s[i];
    return out;
}

// EMU_PROFILE_PTXAS names a file of lines "regs<TAB>smem<TAB>demangled kernel name" (workbook profile writes it from
// nvcc -Xptxas -v). Template instances of one kernel share a key (kernel_key): the largest counts are kept.
void load_ptxas(State& S) {
    S.ptxas_loaded = true;
    const char* f = std::getenv("EMU_PROFILE_PTXAS");
    if (!f) return;
    std::ifstream in(f);
    std::string line;
    while (std::getline(in, line)) {
        const auto t1 = line.find('\t'), t2 = line.find('\t', t1 == std::string::npos ? t1 : t1 + 1);
        if (t1 == std::string::npos || t2 == std::string::npos) continue;
        const unsigned regs = static_cast<unsigned>(std::strtoul(line.c_str(), nullptr, 10));
        const std::size_t smem = std::strtoull(line.c_str() + t1 + 1, nullptr, 10);
        auto& e = S.ptxas[rt::kernel_key(line.substr(t2 + 1))];
        e.first = std::max(e.first, regs);
        e.second = std::max(e.second, smem);
        S.ptxas_instance[instance_key(line.substr(t2 + 1))] = {regs, smem};
    }
}

// Attribution walks the live stack (memcheck.cpp); remember which sites are the student's own, to walk only for
// accesses made inside the emulator's headers.
const void* attribute_pc(State& S, const void* pc) {
    auto it = S.attributed.find(pc);
    if (it != S.attributed.end()) return it->second ? it->second : mc::attribute(pc);
    const void* a = mc::attribute(pc);
    S.attributed.emplace(pc, a == pc ? pc : nullptr);
    return a;
}

LineStat& line_stat(State& S, const Request& r) {
    auto it = S.line_of.find(r.pc);
    if (it == S.line_of.end()) {
        LineStat ls;
        ls.where = site(r.pc);
        ls.shared = r.shared;
        ls.write = r.write || r.atomic;
        // Several code addresses of one line (unrolled loops): one entry per line, kind and direction.
        std::size_t idx = S.s.lines.size();
        for (std::size_t i = 0; i < S.s.lines.size(); ++i)
            if (S.s.lines[i].where == ls.where && S.s.lines[i].shared == ls.shared && S.s.lines[i].write == ls.write)
                idx = i;
        if (idx == S.s.lines.size()) S.s.lines.push_back(ls);
        it = S.line_of.emplace(r.pc, idx).first;
    }
    return S.s.lines[it->second];
}

// Returns whether a load request had a sector that L1 did not serve (it waits on L2 or DRAM).
bool count_global(State& S, const Request& r, std::uint64_t serial) {
    LaunchStats& s = S.s;
    const std::uint64_t bytes = std::uint64_t(__builtin_popcount(r.mask)) * r.size;
    const unsigned sec = request_sectors(r), ideal = ideal_sectors(r), lines = request_lines(r);
    LineStat& ls = line_stat(S, r);
    ++ls.requests, ls.bytes += bytes, ls.sectors += sec, ls.ideal += ideal;
    if (r.atomic) ++s.atom_requests;
    else if (r.write)
        ++s.st_requests, s.st_sectors += sec, s.st_bytes += bytes, s.st_ideal += ideal, s.st_lines += lines;
    else ++s.ld_requests, s.ld_sectors += sec, s.ld_bytes += bytes, s.ld_ideal += ideal, s.ld_lines += lines;
    // Each sector once per request, with the bytes the lanes used in it. A load's sectors go through the L1 model
    // first; what it misses, and every store and atomic, goes on to the L2 model.
    std::uint64_t ids[32 * 4];
    std::uint32_t masks[32 * 4];
    unsigned n = 0;
    for (unsigned l = 0; l < 32; ++l) {
        if (!(r.mask >> l & 1u)) continue;
        for (std::uintptr_t a = r.addr[l]; a < r.addr[l] + r.size;) {
            const std::uint64_t id = a / 32;
            const std::uintptr_t end = std::min<std::uintptr_t>(r.addr[l] + r.size, (id + 1) * 32);
            std::uint32_t m = 0;
            for (std::uintptr_t b = a; b < end; ++b) m |= 1u << (b % 32);
            unsigned i = 0;
            while (i < n && ids[i] != id) ++i;
            if (i == n && n < 32 * 4) ids[n] = id, masks[n++] = 0;
            if (i < n) masks[i] |= m;
            a = end;
        }
    }
    const bool through_l1 = !r.write && !r.atomic;
    bool to_l2[32 * 4];
    bool missed = false;
    for (unsigned i = 0; i < n; ++i) to_l2[i] = !through_l1;
    if (through_l1) {
        // One call per line, in the order the request's lines first appear; sector i of the line is bit i.
        bool done[32 * 4] = {};
        for (unsigned i = 0; i < n; ++i) {
            if (done[i]) continue;
            const std::uint64_t line = ids[i] / 4;
            unsigned want = 0;
            for (unsigned j = i; j < n; ++j)
                if (ids[j] / 4 == line) want |= 1u << (ids[j] % 4);
            const unsigned miss = l1_load_line(line, want, serial, r.warp, r.interval);
            for (unsigned j = i; j < n; ++j)
                if (ids[j] / 4 == line) done[j] = true, to_l2[j] = miss >> (ids[j] % 4) & 1u;
            missed |= miss != 0;
        }
    }
    for (unsigned i = 0; i < n; ++i) {
        if (to_l2[i]) l2_sector(ids[i], r.write || r.atomic, masks[i], serial, r.warp, r.interval);
        else l2_footprint(ids[i], masks[i]);  // served by L1, yet part of what the launch reads
    }
    return missed;
}

void count_shared(State& S, const Request& r) {
    LaunchStats& s = S.s;
    const unsigned w = shared_wavefronts(r), ideal = shared_ideal_wavefronts(r);
    LineStat& ls = line_stat(S, r);
    ++ls.requests, ls.bytes += std::uint64_t(__builtin_popcount(r.mask)) * r.size;
    ls.wavefronts += w, ls.ideal_wavefronts += ideal;
    (r.write ? s.sh_st_requests : s.sh_ld_requests)++;
    s.sh_wavefronts += w;
    s.sh_ideal_wavefronts += ideal;
    for (unsigned l = 0; l < 32; ++l)
        if ((r.mask >> l & 1u) && r.addr[l] >= (64u << 10) && r.addr[l] < (256u << 10))
            s.static_shared_seen = std::max<std::size_t>(s.static_shared_seen, r.addr[l] + r.size - (64u << 10));
}

// Ends the open requests (a barrier, the end of a block): counts them, feeds the L2, keeps warp 0's for the picture.
void flush(State& S) {
    const std::uint64_t serial = S.serial;
    unsigned interval_trips = 0;  // the most round trips beyond L1 one warp made in this barrier interval
    for (const Request& r : S.pending) {
        if ((r.mask & r.exists) != r.exists) ++S.s.partial_requests;
        const bool missed = !r.shared && count_global(S, r, serial) && !r.write && !r.atomic;
        if (r.shared) count_shared(S, r);
        // Loads that wait on L2 or DRAM (an L1 miss) are a round trip of a few hundred cycles; loads that all hit L1
        // wait some tens of cycles, which the time model leaves out. The warps of a block wait for each other at a
        // barrier, and a warp waits for its own loads at a shuffle or vote of a value they feed (a row's sum): each
        // stretch of a warp's code between two of these with a miss is one round trip. A warp that sums two rows one
        // after the other waits four times between two barriers (warp_row2: the fifth check's -22 to -40 % where
        // one round trip per barrier interval was counted).
        if (missed && (S.first_block || S.warm_block) && r.warp < S.warp_trips.size()) {
            State::WarpTrips& w = S.warp_trips[r.warp];
            if (r.segment + 1 != w.last) ++w.trips, w.last = r.segment + 1;
            interval_trips = std::max(interval_trips, w.trips);
        }
        if (S.first_block && r.warp == 0 && S.s.trace.size() < 1024) S.s.trace.push_back(r);
        // A barrier interval of the first block that loads from global memory is one round trip to memory that the
        // block must wait for before it can go on (load_phases; the time model counts the ones beyond L1, above).
        if (S.first_block && !r.shared && !r.write && !r.atomic && r.interval + 1 != S.last_load_phase)
            ++S.s.load_phases, S.last_load_phase = r.interval + 1;
    }
    (S.first_block ? S.first_miss_phases : S.warm_miss_phases) += interval_trips;
    for (auto& w : S.warp_trips) w = {};
    S.pending.clear();
    S.open.clear();
    for (auto& v : S.occ) v.clear();
    for (auto& l : S.last_load) l = {};
}

// Occupancy from the registers and shared memory known so far, and what the cache models need of it: the blocks
// resident on the chip at once in the predicted launch (the L2 is shared by that many rows in flight), and per SM
// (its L1 by that many), and the L1's size after the shared-memory carveout. An SM that runs a block holds all of it:
// with fewer blocks than SMs each used SM has one block, not the chip's average (16 / 132 of one, whose warps the L1
// model then took for a single warp, keeping rows that the block's own warps evict: the fifth check's half_warp_row
// and warp_row2 at 256 x 4096, L1 hits +199 % and +25 %).
void configure_caches(LaunchStats& s) {
    const Occupancy o = occupancy(static_cast<unsigned>(s.threads_per_block), s.regs, s.ptxas_smem + s.dynamic_shared);
    s.concurrent_blocks = std::min(s.predict_blocks, 132.0 * o.blocks_per_sm);
    const double warps = double((s.threads_per_block + 31) / 32), per_sm = std::max(1.0, s.concurrent_blocks / 132.0);
    s.l1_bytes = o.l1_bytes;
    l2_configure(s.concurrent_blocks, warps);
    l1_configure(per_sm, per_sm * warps, o.l1_bytes);
}

// The first accesses of a launch name its template instance: the function their code is in (a __device__ helper's
// accesses name the helper, and are passed over). Its own registers then replace the kernel name's largest counts,
// before any request reaches the cache models (they are counted at the first barrier or block end).
void resolve_instance(State& S, const void* attributed_pc) {
    if (S.instance_resolved || S.resolve_tries >= 64) return;
    ++S.resolve_tries;
    const std::string fn = rt::function_name(attributed_pc);
    if (fn.empty() || rt::kernel_key(fn) != rt::kernel_key(S.s.kernel)) return;
    S.instance_resolved = true;
    const auto it = S.ptxas_instance.find(instance_key(fn));
    if (it == S.ptxas_instance.end()) return;
    S.s.instance = instance_key(fn);
    S.s.regs = it->second.first, S.s.ptxas_smem = it->second.second, S.s.ptxas_known = true;
    configure_caches(S.s);
}

}  // namespace

void on_access(const void* p, std::size_t size, unsigned flags, const void* pc) {
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    const bool shared = a - mc::g_arena_lo < mc::g_arena_hi - mc::g_arena_lo;
    if (!shared && !(a - mc::g_heap_lo < mc::g_heap_hi - mc::g_heap_lo)) return;
    State& S = st();
    const rt::ThreadInfo& t = rt::current_thread();
    // g++ at -O0 loads `row[c] * row[c]` twice; nvcc loads once and keeps the value in a register. A load of the
    // bytes this thread loaded last, with no store of its own in between, is such a second load: not a request.
    State::LastLoad& last = S.last_load[t.linear];
    if (flags & (mc::kWrite | mc::kAtomic)) {
        last = {};
    } else {
        if (last.addr == a && last.size == size) return;
        last = {a, size};
    }
    auto& mine = S.occ[t.linear];
    std::uint32_t k = 0;
    auto e = std::find_if(mine.begin(), mine.end(), [pc](const auto& x) { return x.first == pc; });
    if (e == mine.end()) mine.emplace_back(pc, 1);
    else k = e->second++;
    const Key key{pc, t.warp, k};
    auto it = S.open.find(key);
    if (it == S.open.end() || (S.pending[it->second].mask >> t.lane & 1u)) {
        Request r;
        r.pc = attribute_pc(S, pc);
        resolve_instance(S, r.pc);
        r.shared = shared;
        r.write = flags & mc::kWrite;
        r.atomic = flags & mc::kAtomic;
        r.size = static_cast<unsigned>(size);
        const rt::WarpState& ws = rt::g_engine.warps[t.warp];
        r.exists = ws.exists & ~ws.exited;
        r.interval = S.interval;
        r.warp = t.warp;
        if (t.warp < S.warp_trips.size()) r.segment = S.warp_trips[t.warp].collectives;
        S.pending.push_back(r);
        it = S.open.insert_or_assign(key, static_cast<std::uint32_t>(S.pending.size() - 1)).first;
    }
    Request& r = S.pending[it->second];
    r.mask |= 1u << t.lane;
    r.size = std::max(r.size, static_cast<unsigned>(size));
    r.addr[t.lane] = shared ? a - mc::g_arena_lo : a;
}

void on_launch_begin(std::size_t dynamic_shared_bytes) {
    State& S = st();
    if (!S.ptxas_loaded) load_ptxas(S);
    LaunchStats s;
    s.kernel = rt::kernel_name();
    const rt::Dim3 g = rt::grid_dim(), b = rt::block_dim();
    s.grid[0] = g.x, s.grid[1] = g.y, s.grid[2] = g.z;
    s.block[0] = b.x, s.block[1] = b.y, s.block[2] = b.z;
    s.threads_per_block = std::uint64_t(b.x) * b.y * b.z;
    s.dynamic_shared = dynamic_shared_bytes;
    s.label = S.next_label;
    const double grid_blocks = double(g.x) * g.y * g.z;
    s.predict_blocks = S.next_scale > 0 ? S.next_scale * grid_blocks : grid_blocks;
    s.min_bytes = S.next_min;
    S.next_label.clear();
    S.next_scale = S.next_min = 0;
    const auto it = S.ptxas.find(rt::kernel_key(s.kernel));
    if (it != S.ptxas.end()) s.regs = it->second.first, s.ptxas_smem = it->second.second, s.ptxas_known = true;
    const char* mib = std::getenv("EMU_PROFILE_L2_MIB");
    const std::uint64_t l2 = std::uint64_t(mib ? std::atof(mib) : 50.0) * (1ull << 20);
    l2_launch_begin(1, 1, l2);
    l1_launch_begin(1, 1, 256 << 10);
    configure_caches(s);
    S.s = std::move(s);
    S.occ.assign(S.s.threads_per_block, {});
    S.last_load.assign(S.s.threads_per_block, {});
    S.warp_trips.assign((S.s.threads_per_block + 31) / 32, {});
    S.pending.clear();
    S.open.clear();
    S.line_of.clear();
    S.interval = 0;
    S.first_block = false;
    S.last_load_phase = 0;
    S.warm_block = false;
    S.first_miss_phases = S.warm_miss_phases = 0;
    S.instance_resolved = false;
    S.resolve_tries = 0;
}

void on_block_begin() {
    State& S = st();
    flush(S);
    S.serial = rt::block_serial();
    S.first_block = S.s.blocks == 0;
    S.warm_block = S.s.blocks == 1;
    if (S.first_block) l2_first_block(S.serial), l1_first_block(S.serial);
    ++S.s.blocks;
    S.interval = 0;
}

void on_barrier() {
    State& S = st();
    ++S.s.barriers;
    flush(S);
    ++S.interval;
}

void on_collective(Coll kind) {
    State& S = st();
    LaunchStats& s = S.s;
    (kind == Coll::shfl ? s.shuffles : kind == Coll::vote ? s.votes : s.syncwarps)++;
    // A shuffle or vote exchanges values the lanes computed, so the warp waits there for the loads they came from;
    // __syncwarp exchanges nothing. Called by the lane that completes the collective, so current_thread() is its warp.
    const unsigned warp = rt::current_thread().warp;
    if (kind != Coll::syncwarp && warp < S.warp_trips.size()) ++S.warp_trips[warp].collectives;
}

void on_launch_end() {
    State& S = st();
    flush(S);
    // One block emulated: only the cold one's round trips are known.
    S.s.miss_phases = S.s.blocks > 1 ? S.warm_miss_phases : S.first_miss_phases;
    S.s.l2 = l2_launch_end();
    S.s.l1 = l1_launch_end();
    write_launch(S.s);
}

}  // namespace emu::prof

namespace emu {

bool profiling() { return prof::g_on; }

void profile_shape(const char* label, double scale, double min_bytes) {
    auto& S = prof::st();
    S.next_label = label ? label : "";
    S.next_scale = scale;
    S.next_min = min_bytes;
}

}  // namespace emu
