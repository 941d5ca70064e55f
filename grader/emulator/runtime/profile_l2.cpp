// The profiler's L2 model: which sectors would come from DRAM on an H200.
//
// A least-recently-used cache measured by reuse distance: a sector is still in L2 when fewer bytes than the L2 holds
// went through it since the sector was last used. The emulator runs blocks one after another, but the GPU runs
// `concurrent` blocks at once, all sharing its L2: between two uses of a sector by the same block, the other
// resident blocks move about as many bytes each. So a reuse inside one block counts its distance `concurrent`
// times, and a reuse by the same warp in the same barrier interval counts the WARP'S OWN traffic since its last
// use `concurrent` x warps per block times (the GPU interleaves every resident warp; the emulator's order does not
// matter: where the warps meet at a shuffle the scheduler has run the block's other warps in between, and scaling
// their traffic too counted it twice, so one warp per row on rows of 2-4 KiB re-read its row from DRAM in the
// model, not on the GPU: fourth check, bf16_warp_row +39 %); a reuse by a later block (a weight
// vector every row reads) counts the distance as it happened, which is already the traffic of the blocks in
// between. A SHARED sector (one more than one block has used: the weight) counts its distance as emulated even when
// the same block reuses it: its other readers, resident all over the GPU, keep it recently used (without this, one
// warp per row re-fetched the weight from DRAM for every row: warp_per_row +27 %, warp_row_vec4 +18 % DRAM bytes in
// the held-out checks). The L2 sees what L1 did not serve (profile_l1.cpp): load misses, stores and atomics. Set-associativity and the L2's two partitions are left out: with
// 16 or more ways, conflict misses are small next to the capacity effect this captures.
//
// DRAM bytes: a read of a sector not in L2 fetches its 32 bytes. Stores are written back: a dirty sector costs
// 32 bytes when it is evicted (found gone at its next use) or when the launch ends. The footprint (distinct bytes
// loaded, distinct bytes stored) is the minimum the launch needs.
#include <unordered_map>
#include <vector>

#include "profile.hpp"

namespace emu::prof {
namespace {

struct Sector {
    std::uint64_t last = 0;               // traffic clock at the last use
    std::uint64_t warp_last = 0;          // the using warp's own traffic clock then
    std::uint64_t block = 0;              // block execution that used it last
    unsigned warp = 0, interval = 0;      // and its warp and barrier interval
    std::uint32_t read = 0, written = 0;  // byte masks, for the footprint
    bool dirty = false;
    bool shared = false;  // used by more than one block since the launch began
};

struct Model {
    std::unordered_map<std::uint64_t, Sector> sectors;
    std::uint64_t clock = 0;                // bytes of sector traffic so far in this launch
    std::vector<std::uint64_t> warp_clock;  // per warp of the block (by index): that warp's own sector bytes
    double concurrent = 1, warps_per_block = 1;
    double capacity = 50.0 * (1 << 20);
    std::uint64_t first_block = 0;
    L2Totals t;
};

Model& model() {
    static Model* m = new Model;
    return *m;
}

}  // namespace

void l2_configure(double concurrent_blocks, double warps_per_block) {
    Model& m = model();
    m.concurrent = concurrent_blocks < 1 ? 1 : concurrent_blocks;
    m.warps_per_block = warps_per_block < 1 ? 1 : warps_per_block;
}

void l2_launch_begin(double concurrent_blocks, double warps_per_block, std::uint64_t capacity_bytes) {
    Model& m = model();
    m.sectors.clear();
    m.clock = 0;
    m.warp_clock.clear();
    l2_configure(concurrent_blocks, warps_per_block);
    m.capacity = static_cast<double>(capacity_bytes);
    m.t = L2Totals{};
}

void l2_sector(std::uint64_t id, bool write, std::uint32_t byte_mask, std::uint64_t block_serial, unsigned warp,
               unsigned interval) {
    Model& m = model();
    if (warp >= m.warp_clock.size()) m.warp_clock.resize(warp + 1, 0);
    std::uint64_t& own = m.warp_clock[warp];
    auto [it, fresh] = m.sectors.try_emplace(id);
    Sector& s = it->second;
    bool hit = false;
    if (!fresh) {
        s.shared |= s.block != block_serial;
        double d = static_cast<double>(m.clock - s.last);
        if (s.block == block_serial && !s.shared)
            d = s.warp == warp && s.interval == interval
                    ? static_cast<double>(own - s.warp_last) * m.concurrent * m.warps_per_block
                    : d * m.concurrent;
        hit = d < m.capacity;
    }
    if (!hit && s.dirty) {
        m.t.dram_write += 32;  // written back when it was evicted
        s.dirty = false;
    }
    if (write) {
        s.dirty = true;
        s.written |= byte_mask;
    } else {
        if (!hit) {
            m.t.dram_read += 32;
            if (block_serial == m.first_block) m.t.first_block_read += 32;
        }
        s.read |= byte_mask;
    }
    s.last = m.clock;
    s.warp_last = own;
    s.block = block_serial;
    s.warp = warp, s.interval = interval;
    m.clock += 32;
    own += 32;
}

void l2_footprint(std::uint64_t id, std::uint32_t byte_mask) { model().sectors[id].read |= byte_mask; }

void l2_first_block(std::uint64_t block_serial) { model().first_block = block_serial; }

L2Totals l2_launch_end() {
    Model& m = model();
    for (auto& [id, s] : m.sectors) {
        if (s.dirty) m.t.dram_write += 32;
        m.t.footprint_read += static_cast<unsigned>(__builtin_popcount(s.read));
        m.t.footprint_write += static_cast<unsigned>(__builtin_popcount(s.written));
    }
    L2Totals t = m.t;
    m.sectors.clear();
    return t;
}

}  // namespace emu::prof
