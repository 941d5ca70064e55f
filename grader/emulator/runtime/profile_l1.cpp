// The profiler's L1 model: which global-load sectors an SM's L1 would serve itself, so that they never reach L2.
//
// Why: a load whose sectors the same SM fetched a little earlier is an L1 hit on an H200 (global loads are cached
// in L1 by default since Volta). The re-read of a row in the two-pass kernel, the second of two loads 8 bytes apart
// (`pairs_scalar`), the next iterations of a strided walk (`strided` on short rows) and a weight vector that every
// block of an SM reads are such hits: Nsight Compute counts them (l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit),
// and the L2 never sees them. Without this model, the L2 term counted them as traffic.
//
// The model: least recently used by reuse distance, like the L2 model (profile_l2.cpp), but of 128-byte LINES, each
// with four 32-byte sector-valid bits. L1 allocates a tag per line and fills only the sectors asked for, so 32 lanes
// in 32 lines take 32 lines of capacity even when each uses one sector: that is why `strided` on rows of 8192 floats
// thrashes L1 while on rows of 1024 it hits. Capacity: the 256 KiB of an SM's L1 and shared memory, less the shared
// memory carveout the resident blocks need (profile_model.cpp, occupancy()).
//
// The emulator runs one block at a time, and within a barrier interval one warp after another; the SM runs all its
// resident warps at once, interleaved. So the traffic between two uses of a line, as emulated, is scaled to what the
// SM would have moved in between:
//   * same warp, same barrier interval (the next iterations of a loop, a warp re-reading its row after a shuffle):
//     the WARP'S OWN traffic since its last use x every warp resident on the SM. Its own, not the block's: the
//     scheduler runs each thread until a barrier or a warp collective, so where a warp meets at a shuffle the
//     block's other warps have run (and fed this model) in between, and scaling that block traffic by the resident
//     warps counted the other warps twice (one warp per row on rows of 2-4 KiB was predicted to lose its row
//     before re-reading it: fourth check, bf16_warp_row +39 %). The warp's own traffic does not depend on the order
//     the emulator ran the warps in;
//   * same block otherwise (pass 2 re-reading pass 1's row): x the blocks resident on the SM;
//   * another block (a weight every block reads): as emulated, since the blocks between the two uses on the GPU are
//     spread over all SMs, and each SM sees about one block's traffic between its own blocks' uses.
//   * a SHARED line (one that more than one block has used: a weight every block reads), even when the same block
//     uses it again: as emulated. On the GPU its other readers are resident beside this one, at other points of
//     their rows, so one of them touches it about as often as the emulator's one-after-another order does; scaling
//     the distance by the warps or blocks resident would evict a line they keep warm (rows2's second row and
//     warp_row_vec4's four warps re-read the weight: third check, -52 % and -76 % of L1's hits). A line two warps
//     of one block share (a misaligned row's boundaries, a tile read back by other warps) is not kept warm by
//     anyone else: it is scaled as before.
// Stores are written through to L2 and not allocated here; atomics are served by L2.
#include <unordered_map>
#include <vector>

#include "profile.hpp"

namespace emu::prof {
namespace {

struct Line {
    double last = 0;       // traffic clock at the last use
    double warp_last = 0;  // the using warp's own traffic clock then
    std::uint64_t block = 0;
    unsigned warp = 0, interval = 0;
    unsigned valid = 0;   // sectors filled (4 bits)
    bool shared = false;  // used by more than one block since the launch began
};

struct Model {
    std::unordered_map<std::uint64_t, Line> lines;
    double clock = 0;                // bytes of line traffic so far in this launch
    std::vector<double> warp_clock;  // per warp of the block (by index): the bytes of that warp's own requests
    double blocks_per_sm = 1, warps_per_sm = 1;
    double capacity = 256.0 * 1024;
    std::uint64_t first_block = 0;
    L1Totals t;
};

Model& model() {
    static Model* m = new Model;
    return *m;
}

}  // namespace

void l1_launch_begin(double blocks_per_sm, double warps_per_sm, std::uint64_t capacity_bytes) {
    Model& m = model();
    m.lines.clear();
    m.clock = 0;
    m.warp_clock.clear();
    m.blocks_per_sm = blocks_per_sm < 1 ? 1 : blocks_per_sm;
    m.warps_per_sm = warps_per_sm < 1 ? 1 : warps_per_sm;
    m.capacity = static_cast<double>(capacity_bytes);
    m.t = L1Totals{};
}

void l1_configure(double blocks_per_sm, double warps_per_sm, std::uint64_t capacity_bytes) {
    Model& m = model();
    m.blocks_per_sm = blocks_per_sm < 1 ? 1 : blocks_per_sm;
    m.warps_per_sm = warps_per_sm < 1 ? 1 : warps_per_sm;
    m.capacity = static_cast<double>(capacity_bytes);
}

void l1_first_block(std::uint64_t block_serial) { model().first_block = block_serial; }

unsigned l1_load_line(std::uint64_t line, unsigned sector_mask, std::uint64_t block, unsigned warp, unsigned interval) {
    Model& m = model();
    if (warp >= m.warp_clock.size()) m.warp_clock.resize(warp + 1, 0.0);
    double& own = m.warp_clock[warp];
    auto [it, fresh] = m.lines.try_emplace(line);
    Line& l = it->second;
    if (!fresh) {
        l.shared |= l.block != block;
        double d = m.clock - l.last;
        if (l.block == block && !l.shared)
            d = (l.warp == warp && l.interval == interval) ? (own - l.warp_last) * m.warps_per_sm : d * m.blocks_per_sm;
        if (d >= m.capacity) l.valid = 0;  // evicted since: the tag is allocated again, empty
    }
    const unsigned miss = sector_mask & ~l.valid;
    const unsigned n_miss = static_cast<unsigned>(__builtin_popcount(miss));
    m.t.hit_sectors += static_cast<unsigned>(__builtin_popcount(sector_mask)) - n_miss;
    m.t.miss_sectors += n_miss;
    if (block == m.first_block) m.t.first_block_miss_sectors += n_miss;
    l.valid |= sector_mask;
    l.last = m.clock;
    l.warp_last = own;
    l.block = block, l.warp = warp, l.interval = interval;
    m.clock += 128;
    own += 128;
    return miss;
}

L1Totals l1_launch_end() {
    Model& m = model();
    m.lines.clear();
    return m.t;
}

}  // namespace emu::prof
