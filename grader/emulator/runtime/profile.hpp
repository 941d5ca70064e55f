// The emulator's opt-in profiler: what Nsight Compute would count, from the accesses the memory checker already sees.
// Off unless EMU_PROFILE=<directory> is set when the program starts; then every hook below is called, otherwise
// none (each call site is one branch on g_on). Files: profile_counters.cpp (warp-level requests, sectors, banks,
// barriers, collectives), profile_l2.cpp (the L2 model), profile_model.cpp (occupancy and the H200 prediction),
// profile_report.cpp (per-launch JSON and text), profile_picture.cpp (one warp's segments and banks, SVG and text).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace emu::prof {

extern bool g_on;  // EMU_PROFILE was set at start-up

// ---- hooks (called by memcheck.hpp's access(), memcheck.cpp's engine callbacks and collectives.cpp) ------------
void on_access(const void* addr, std::size_t size, unsigned flags, const void* pc);
void on_launch_begin(std::size_t dynamic_shared_bytes);
void on_block_begin();
void on_barrier();
enum class Coll { shfl, vote, syncwarp };
void on_collective(Coll kind);
void on_launch_end();

// ---- one warp-level memory request: the lanes of a warp that executed one access site the same time --------------
struct Request {
    const void* pc = nullptr;
    bool shared = false, write = false, atomic = false;
    unsigned size = 0;      // bytes per lane
    unsigned mask = 0;      // lanes that took part
    unsigned exists = 0;    // lanes of the warp that exist
    unsigned interval = 0;  // barrier interval of the block (0 = before the first __syncthreads)
    unsigned segment = 0;   // the warp's shuffles and votes before it in this interval (each waits for its inputs)
    unsigned warp = 0;
    std::uintptr_t addr[32] = {};  // per lane (a shared address is an offset in the arena)
};

// Sectors (32 bytes) a global request touches, and the fewest it could touch for its bytes.
unsigned request_sectors(const Request& r);
// 128-byte lines a global request touches: L1's data path moves one line's worth (128 bytes) per clock, so a request
// costs at least this many L1 wavefronts (1 for 32 coalesced 4-byte lanes, 4 for 16-byte lanes, 32 for lanes in
// 32 different lines).
unsigned request_lines(const Request& r);
unsigned ideal_sectors(const Request& r);
// Shared-memory wavefronts of a request (32 banks of 4 bytes; lanes reading one word share it: a broadcast), and the
// fewest possible (one per phase: 8-byte accesses are served a half-warp, 16-byte ones a quarter-warp at a time).
unsigned shared_wavefronts(const Request& r);
unsigned shared_ideal_wavefronts(const Request& r);

// ---- the L2 model (profile_l2.cpp) -----------------------------------------------------------------------------
struct L2Totals {
    std::uint64_t dram_read = 0, dram_write = 0;  // bytes between L2 and DRAM, modelled
    std::uint64_t first_block_read = 0;           // of dram_read, the misses of the launch's first block: data
                                                  // every block reads (a weight vector) comes from DRAM once
    std::uint64_t footprint_read = 0, footprint_write = 0;  // distinct bytes loaded / stored: the problem's minimum
};
void l2_launch_begin(double concurrent_blocks, double warps_per_block, std::uint64_t capacity_bytes);
void l2_configure(double concurrent_blocks, double warps_per_block);
void l2_first_block(std::uint64_t block_serial);
// Every sector an SM sends to L2 (L1 misses of loads, stores, atomics), from warp `warp` in barrier interval
// `interval` of block `block_serial`.
void l2_sector(std::uint64_t sector, bool write, std::uint32_t byte_mask, std::uint64_t block_serial, unsigned warp,
               unsigned interval);
// A load sector L1 served: no L2 traffic, but its bytes count in the footprint (the problem's minimum).
void l2_footprint(std::uint64_t sector, std::uint32_t byte_mask);
L2Totals l2_launch_end();

// ---- the L1 model (profile_l1.cpp): global loads only ------------------------------------------------------------
struct L1Totals {
    std::uint64_t hit_sectors = 0, miss_sectors = 0;  // of global-load sectors, as emulated
    std::uint64_t first_block_miss_sectors = 0;       // of the misses, the launch's first block's: what a cold SM
                                                      // fetches that a warm one (which ran a block before) need not
};
// blocks and warps resident on one SM (the interleaving the emulated distances are scaled by), L1's bytes.
void l1_launch_begin(double blocks_per_sm, double warps_per_sm, std::uint64_t capacity_bytes);
void l1_configure(double blocks_per_sm, double warps_per_sm, std::uint64_t capacity_bytes);
void l1_first_block(std::uint64_t block_serial);
// One 128-byte line of a load request, the sectors it asks for (4 bits): returns the sectors that missed (go to L2).
unsigned l1_load_line(std::uint64_t line, unsigned sector_mask, std::uint64_t block, unsigned warp, unsigned interval);
L1Totals l1_launch_end();

// ---- occupancy and the prediction (profile_model.cpp) ------------------------------------------------------------
struct Occupancy {
    unsigned blocks_per_sm = 0;
    double fraction = 0;         // resident warps / 64
    std::string limit;           // "threads", "registers", "shared memory", "blocks"
    unsigned carveout_kib = 0;   // shared memory the SM sets aside for its resident blocks (a Hopper carveout size)
    std::uint64_t l1_bytes = 0;  // what is left of the 256 KiB for L1
};
// regs_per_thread == 0: unknown (not a limit).
Occupancy occupancy(unsigned threads_per_block, unsigned regs_per_thread, std::size_t shared_per_block);

struct PredictInput {
    double blocks = 0;             // of the predicted launch
    double concurrent_blocks = 0;  // resident on the whole chip at once
    double dram_bytes = 0;         // between L2 and DRAM (the L2 model)
    double sector_bytes = 0;       // requested by the SMs from L2 (every sector of every global request)
    double l1_wavefronts = 0;      // global requests' 128-byte lines + shared-memory wavefronts
    double warps_per_sm = 0;       // resident on each SM (0: unknown, not a limit)
    double load_phases = 0;        // a block's dependent round trips to memory (barrier intervals with loads)
    double miss_phases = 0;        // of them, those that wait beyond L1 in a warm block (profile_counters.cpp)
    double store_fraction = 0;     // of the DRAM bytes, the stores': posted, no warp waits for them
    double l2_bytes = 0;           // the SMs ask of L2: L1's load misses (the L1 model), stores, atomics
    double blocks_per_sm = 0;      // resident on each SM at once
    double busiest_sm_blocks = 0;  // blocks the busiest SM runs over the launch: ceil(blocks / 132)
    double barriers_per_block = 0;
};
struct Prediction {
    double us = 0, dram_us = 0, l2_us = 0, l1_us = 0, floor_us = 0, block_us = 0, fixed_us = 0, waves = 0, tbs = 0;
    const char* bound = "";  // which term dominates
};
Prediction predict(const PredictInput& in, double useful_bytes);
// The model's constants, printed with every report.
std::string model_description();

// ---- per-launch results (profile_counters.cpp fills them, profile_report.cpp writes them) ----------------------
struct LineStat {
    std::string where;  // file.cu:LINE
    bool shared = false, write = false;
    std::uint64_t requests = 0, sectors = 0, ideal = 0, wavefronts = 0, ideal_wavefronts = 0, bytes = 0;
};
struct LaunchStats {
    std::string kernel, label;
    unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
    std::uint64_t blocks = 0, threads_per_block = 0;
    std::size_t dynamic_shared = 0, static_shared_seen = 0;
    std::uint64_t ld_requests = 0, ld_sectors = 0, ld_bytes = 0, ld_ideal = 0, ld_lines = 0;
    std::uint64_t st_requests = 0, st_sectors = 0, st_bytes = 0, st_ideal = 0, st_lines = 0;
    std::uint64_t atom_requests = 0;
    std::uint64_t sh_ld_requests = 0, sh_st_requests = 0, sh_wavefronts = 0, sh_ideal_wavefronts = 0;
    std::uint64_t barriers = 0, shuffles = 0, votes = 0, syncwarps = 0, partial_requests = 0;
    unsigned load_phases = 0;  // barrier intervals of the first block with global loads: dependent round trips
    unsigned miss_phases = 0;  // of a warm block (the second): round trips beyond L1, per barrier interval the most
                               // that one warp makes (its loads that miss L1 between two of its shuffles or votes)
    L2Totals l2;
    L1Totals l1;
    std::uint64_t l1_bytes = 0;  // the L1's size in the predicted launch (after the shared-memory carveout)
    double concurrent_blocks = 0;
    std::string instance;  // the template instance whose registers were used ("k<256,4>"), if found
    unsigned regs = 0;     // 0: unknown
    std::size_t ptxas_smem = 0;
    bool ptxas_known = false;
    double predict_blocks = 0;  // grid the prediction is for (emu_profile_shape), else this grid
    double min_bytes = 0;       // the problem's minimum as the program states it, else the footprint
    std::vector<LineStat> lines;
    std::vector<Request> trace;  // warp 0 of the first block, in program order
};
void write_launch(const LaunchStats& s);              // profile_report.cpp
std::string render_trace_text(const LaunchStats& s);  // profile_picture.cpp
std::string render_trace_svg(const LaunchStats& s);
std::string profile_dir();  // where reports go (EMU_PROFILE)
// "rmsnorm.cu:74": the file's name without its folder (reports stay readable and the same on every checkout).
std::string site(const void* attributed_pc);

}  // namespace emu::prof
