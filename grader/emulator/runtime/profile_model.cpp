// Occupancy on an H200 and the profiler's predicted time. Everything here is a model, never a measurement: the
// report labels it "predicted".
//
// Time model (per launch): the launch overhead and one block's own latency (the pipeline's fill and drain), then the
// resources every wave must pass through, combined by a p-norm:
//   t = t_fixed + t_block + (t_floor^p + t_dram^p + t_l2^p + t_l1^p)^(1/p)
//   t_block = t_wave + round trips * t_trip
//            A block waits for memory once per barrier interval that loads from global memory (the two-pass
//            kernel: pass 1, then pass 2 after the reduction's barriers).
//   t_floor = waves * t_block: a resident slot cannot start its next block before; waves = blocks / blocks resident
//            on the chip at once. This is Little's law for the latency: the bytes a wave has in flight, once per trip.
//   t_dram  = DRAM bytes (L2 model) / B_dram * max(1, W / resident warps per SM)
//            B_dram: the device-to-device copy measured on the H200 (4.21 TB/s, docs/gpu-runs.md, 2026-12-01). With
//            fewer than W resident warps per SM, too few loads are in flight to stream at that rate.
//   t_l2    = bytes the SMs ask of L2 (the L1 model's load misses, stores, atomics) / B_l2
//   t_l1    = (128-byte lines of global requests + shared-memory wavefronts) of the busiest SM * c_l1 / 1.98 GHz
//            L1's data path moves one line (one wavefront) per SM and clock, hits or not; the busiest SM runs
//            ceil(blocks / 132) blocks (a launch of 32 blocks uses 32 SMs, not 132).
// The p-norm: the resources overlap, but not perfectly. p = 1 would be no overlap at all (each wave's latency, then
// its bytes), p -> infinity the roofline's max (the slowest resource alone); fitted, p sits in between.
// Fitted constants (t_fixed, t_wave, t_trip, W, B_l2, c_l1, p): least squares on log(predicted / measured) over the
// TRAINING set: every point of the first two H200 runs of 2026-12-01 (the 17 variants the emulator sees, at up to
// five shapes, and the count shape's durations; benchmarks/profile-variants/fit_model.py; docs/emulator.md,
// Profiler: the time model). The third check (heldout2.txt, gpu-heldout2.sh) was measured after these constants were
// committed.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "profile.hpp"

namespace emu::prof {
namespace {

constexpr double kClockHz = 1.98e9;
constexpr double kDramBps = 4.21e12;  // measured (copy), not fitted
// fit_model.py on the training set (its output, pasted):
// fitted on 102 points: fixed_us = 1.367, wave_us = 5.669e-08, round_trip_us = 0.8193, streaming_warps = 17.54,
// l2_bps = 1.455e+13, l1_clocks = 1.196, overlap_p = 2.295 (94 of the 102 within 20 %, rms log error 0.116)
// t_wave came out as nothing: a block's own work between its round trips is hidden; its round trips are not.
constexpr double kFixedUs = 1.367, kWaveUs = 5.669e-08, kRoundTripUs = 0.8193, kStreamingWarps = 17.54,
                 kL2Bps = 1.455e13, kL1Clocks = 1.196, kOverlapP = 2.295;
constexpr unsigned kWarpsPerSM = 64, kBlocksPerSM = 32, kRegsPerSM = 65536, kRegGranule = 256;
constexpr std::size_t kSharedPerSM = 228 * 1024, kSharedReservedPerBlock = 1024;

}  // namespace

Occupancy occupancy(unsigned threads, unsigned regs, std::size_t shared) {
    Occupancy o;
    const unsigned warps = std::max(1u, (threads + 31) / 32);
    unsigned by = kBlocksPerSM;
    o.limit = "blocks";
    auto take = [&](unsigned n, const char* why) {
        if (n < by) by = n, o.limit = why;
    };
    take(kWarpsPerSM / warps, "threads");
    if (regs) {
        const unsigned per_warp = (regs * 32 + kRegGranule - 1) / kRegGranule * kRegGranule;
        take(kRegsPerSM / (per_warp * warps), "registers");
    }
    take(static_cast<unsigned>(kSharedPerSM / (shared + kSharedReservedPerBlock)), "shared memory");
    o.blocks_per_sm = by;
    o.fraction = double(by * warps) / kWarpsPerSM;
    // The SM splits its 256 KiB between shared memory and L1 in one of Hopper's carveout sizes: the driver takes the
    // smallest that holds the resident blocks' shared memory (1 KiB of it reserved per block), the rest is L1.
    const std::size_t need = by * (shared + kSharedReservedPerBlock);
    o.carveout_kib = 228;
    for (unsigned kib : {0u, 8u, 16u, 32u, 64u, 100u, 132u, 164u, 196u, 228u})
        if (std::size_t(kib) * 1024 >= need) {
            o.carveout_kib = kib;
            break;
        }
    o.l1_bytes = (256 - o.carveout_kib) * std::uint64_t(1024);
    return o;
}

Prediction predict(const PredictInput& in, double useful_bytes) {
    Prediction p;
    p.dram_us = in.dram_bytes / kDramBps * 1e6;
    if (in.warps_per_sm > 0 && in.warps_per_sm < kStreamingWarps) p.dram_us *= kStreamingWarps / in.warps_per_sm;
    p.l2_us = in.l2_bytes / kL2Bps * 1e6;
    const double busiest = in.blocks > 0 ? in.busiest_sm_blocks / in.blocks : 0;  // of all blocks, on one SM
    p.l1_us = in.l1_wavefronts * busiest * kL1Clocks / kClockHz * 1e6;
    p.waves = in.concurrent_blocks > 0 ? in.blocks / in.concurrent_blocks : 1;
    p.block_us = kWaveUs + kRoundTripUs * in.load_phases;
    p.floor_us = p.waves * p.block_us;
    p.fixed_us = kFixedUs;
    const double slowest = std::max({p.floor_us, p.dram_us, p.l2_us, p.l1_us});
    p.bound = slowest == p.dram_us ? "DRAM"
              : slowest == p.l2_us ? "L2"
              : slowest == p.l1_us ? "L1 data path"
                                   : "latency (round trips per wave)";
    double sum = 0;
    for (double t : {p.floor_us, p.dram_us, p.l2_us, p.l1_us}) sum += std::pow(t, kOverlapP);
    p.us = p.fixed_us + p.block_us + std::pow(sum, 1 / kOverlapP);
    p.tbs = useful_bytes / (p.us * 1e-6) / 1e12;
    return p;
}

std::string model_description() {
    char buf[1024];
    std::snprintf(buf, sizeof buf,
                  "predicted time = %.2f us + t_block + (t_floor^p + t_dram^p + t_l2^p + t_l1^p)^(1/p), p = %.2f; "
                  "t_block = %.2f us + round trips x %.2f us; t_floor = waves x t_block; t_dram = DRAM bytes / %.2f "
                  "TB/s [copy, measured on the H200] x max(1, %.1f / resident warps per SM); t_l2 = bytes asked of L2 "
                  "(L1 misses, stores) / %.1f TB/s; t_l1 = (global lines + shared wavefronts) of the busiest SM x %.2f "
                  "clocks / 1.98 GHz; constants fitted on a training set of H200 runs; L1 model (LRU lines, 256 KiB "
                  "less the shared-memory carveout), L2 model (LRU by reuse distance, 50 MiB); waves = blocks / "
                  "blocks resident at once",
                  kFixedUs, kOverlapP, kWaveUs, kRoundTripUs, kDramBps / 1e12, kStreamingWarps, kL2Bps / 1e12,
                  kL1Clocks);
    return buf;
}

}  // namespace emu::prof
