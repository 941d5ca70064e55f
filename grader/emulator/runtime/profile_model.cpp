// Occupancy on an H200 and the profiler's predicted time. Everything here is a model, never a measurement: the
// report labels it "predicted".
//
// Time model (per launch): the launch overhead and one block's own latency (the pipeline's fill and drain), then the
// resources every launch must pass through and the latency its resident blocks cannot hide, combined by a p-norm:
//   t = t_fixed + t_block + (t_dram^p + t_l2^p + t_l1^p + t_exposed^p)^(1/p)
//   t_block = t_wave + round trips * t_trip
//            A round trip is a stretch of a warp's code between two barriers, shuffles or votes whose loads wait
//            beyond L1 (an L1 miss) in a warm block (the second: an SM's later blocks find the shared data in L1),
//            per barrier interval the most one warp makes: the two-pass kernel's pass 1, and its pass 2 when the row
//            no longer stays in L1 between the passes; a warp's rows one after the other, one or two each. A block
//            (or a warp) waits for it before it can go on.
//   t_dram  = DRAM bytes (L2 model) / B_dram * max(1, W / resident warps per SM)
//            B_dram: the device-to-device copy measured on the H200 (4.21 TB/s, docs/gpu-runs.md, 2026-12-01). With
//            fewer than W resident warps per SM, too few loads are in flight to stream at that rate.
//   t_l2    = bytes the SMs ask of L2 (the L1 model's load misses, stores, atomics) / B_l2
//   t_l1    = (128-byte lines of global requests + shared-memory wavefronts) of the busiest SM * c_l1 / 1.98 GHz
//            L1's data path moves one line (one wavefront) per SM and clock, hits or not; the busiest SM runs
//            ceil(blocks / 132) blocks (a launch of 32 blocks uses 32 SMs, not 132).
//   t_exposed: the latency the resident blocks do not hide. The busiest SM's units (blocks when a barrier makes a
//            block's warps wait for each other, warps when nothing does) each go round a cycle per round trip:
//            wait t_wave / trips + t_trip, then move their loads' share of the bandwidth time
//            S = t_bw * (1 - store fraction) / cycles (stores are posted: no unit waits for them), where
//            t_bw = (t_dram^p + t_l2^p + t_l1^p)^(1/p). With k units resident per SM that is a closed queueing network
//            of k customers, one queue (the memory pipe) and one delay (the wait); its mean value analysis gives the
//            time the cycles take, T(k). t_exposed = T(k) - the loads' own time t_bw * (1 - store fraction): with
//            8 resident blocks of 256 threads nearly nothing is left of a round trip, with 2 of 1024 threads much
//            (block1024: -22 to -33 % with the earlier model's one overlap for every kernel), and with 1 unit per
//            SM all of it. (With no bandwidth time at all, T(k) = cycles * wait / k: waves x t_block, Little's law.)
// The p-norm: the resources overlap, but not perfectly. p = 1 would be no overlap at all, p -> infinity the
// roofline's max (the slowest resource alone); fitted, p sits in between.
// Fitted constants (t_fixed, t_wave, t_trip, W, B_l2, c_l1, p): least squares on log(predicted / measured) over
// every point the first six H200 checks measured (benchmarks/profile-variants/fit_model.py; docs/emulator.md,
// Profiler: the time model). The seventh check (heldout6.txt, gpu-heldout6.sh) is measured after these constants
// were committed.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "profile.hpp"

namespace emu::prof {
namespace {

constexpr double kClockHz = 1.98e9;
constexpr double kDramBps = 4.21e12;  // measured (copy), not fitted
// fit_model.py on every point of the first six checks, 779 measurements (783 points: four measured with two
// versions of a solution count once per version), the sixth check's 227 held-out points included (its output,
// pasted; docs/gpu-runs/2026-12-07-profile7-fit.txt):
// fitted on 783 points: fixed_us = 0.61, wave_us = 0.9526, round_trip_us = 1.046, streaming_warps = 21.72,
// l2_bps = 1.091e+13, l1_clocks = 1.033, overlap_p = 1.998 (700 of the 783 within 20 %, rms log error 0.124)
constexpr double kFixedUs = 0.61, kWaveUs = 0.9526, kRoundTripUs = 1.046, kStreamingWarps = 21.72, kL2Bps = 1.091e13,
                 kL1Clocks = 1.033, kOverlapP = 1.998;
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

namespace {

// Mean value analysis of a closed network: k customers, each going round a delay of `wait` and a single queue of
// service time `service`; returns the cycles completed per unit of time. A fractional k (an SM's share of a launch
// with fewer blocks than SMs x blocks per SM) interpolates between the two whole numbers around it.
double mva_throughput(double k, double wait, double service) {
    auto whole = [&](unsigned n) {
        double queue = 0, x = 0;
        for (unsigned i = 1; i <= n; ++i) {
            const double r = service * (1 + queue);
            x = i / (r + wait);
            queue = x * r;
        }
        return x;
    };
    k = std::clamp(k, 1.0, 64.0);
    const unsigned lo = static_cast<unsigned>(std::floor(k)), hi = static_cast<unsigned>(std::ceil(k));
    const double xl = whole(lo);
    return hi == lo ? xl : xl + (whole(hi) - xl) * (k - lo);
}

}  // namespace

Prediction predict(const PredictInput& in, double useful_bytes) {
    Prediction p;
    p.dram_us = in.dram_bytes / kDramBps * 1e6;
    if (in.warps_per_sm > 0 && in.warps_per_sm < kStreamingWarps) p.dram_us *= kStreamingWarps / in.warps_per_sm;
    p.l2_us = in.l2_bytes / kL2Bps * 1e6;
    const double busiest = in.blocks > 0 ? in.busiest_sm_blocks / in.blocks : 0;  // of all blocks, on one SM
    p.l1_us = in.l1_wavefronts * busiest * kL1Clocks / kClockHz * 1e6;
    p.waves = in.concurrent_blocks > 0 ? in.blocks / in.concurrent_blocks : 1;
    const double trips = std::max(1.0, in.miss_phases);
    p.block_us = kWaveUs + kRoundTripUs * in.miss_phases;
    p.fixed_us = kFixedUs;
    const double bw = std::pow(
        std::pow(p.dram_us, kOverlapP) + std::pow(p.l2_us, kOverlapP) + std::pow(p.l1_us, kOverlapP), 1 / kOverlapP);
    // The busiest SM's independent units and the cycles they go round (profile_model.cpp's header).
    const double warps_per_block = in.blocks_per_sm > 0 ? in.warps_per_sm / in.blocks_per_sm : 1;
    const bool by_blocks = in.barriers_per_block > 0;
    const double resident = std::min(in.blocks_per_sm, in.busiest_sm_blocks) * (by_blocks ? 1 : warps_per_block);
    const double cycles = in.busiest_sm_blocks * (by_blocks ? 1 : warps_per_block) * trips;
    const double loads_us = bw * (1 - in.store_fraction);
    p.floor_us = 0;
    if (cycles > 0) {
        const double t = cycles / mva_throughput(resident, kWaveUs / trips + kRoundTripUs, loads_us / cycles);
        p.floor_us = std::max(0.0, t - loads_us);
    }
    const double slowest = std::max({p.floor_us, p.dram_us, p.l2_us, p.l1_us});
    p.bound = slowest == p.dram_us ? "DRAM"
              : slowest == p.l2_us ? "L2"
              : slowest == p.l1_us ? "L1 data path"
                                   : "latency (round trips the resident blocks do not hide)";
    p.us = p.fixed_us + p.block_us + std::pow(std::pow(bw, kOverlapP) + std::pow(p.floor_us, kOverlapP), 1 / kOverlapP);
    p.tbs = useful_bytes / (p.us * 1e-6) / 1e12;
    return p;
}

std::string model_description() {
    char buf[1400];
    std::snprintf(buf, sizeof buf,
                  "predicted time = %.2f us + t_block + (t_dram^p + t_l2^p + t_l1^p + t_exposed^p)^(1/p), p = %.2f; "
                  "t_block = %.2f us + round trips beyond L1 x %.2f us; t_dram = DRAM bytes / %.2f TB/s [copy, "
                  "measured on the H200] x max(1, %.1f / resident warps per SM); t_l2 = bytes asked of L2 (L1 misses, "
                  "stores) / %.1f TB/s; t_l1 = (global lines + shared wavefronts) of the busiest SM x %.2f clocks / "
                  "1.98 GHz; t_exposed = the round trips the resident blocks (warps, without barriers) do not hide, "
                  "by mean value analysis of the busiest SM; constants fitted on H200 runs; L1 model (LRU lines, "
                  "256 KiB less the shared-memory carveout), L2 model (LRU by reuse distance, 50 MiB); waves = blocks "
                  "/ blocks resident at once",
                  kFixedUs, kOverlapP, kWaveUs, kRoundTripUs, kDramBps / 1e12, kStreamingWarps, kL2Bps / 1e12,
                  kL1Clocks);
    return buf;
}

}  // namespace emu::prof
