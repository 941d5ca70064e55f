// Occupancy on an H200 and the profiler's predicted time. Everything here is a model, never a measurement: the
// report labels it "predicted".
//
// Time model (per launch): the launch overhead, then the slowest of the resources every wave must pass through.
//   t = t_fixed + max(t_floor, t_dram, t_l2, t_l1)
//   t_floor = waves * (t_wave + round trips * t_trip)
//            Each block waits for memory once per barrier interval that loads from global memory (the two-pass
//            kernel: pass 1, then pass 2 after the reduction's barriers), and a resident slot cannot start its next
//            block before: however few bytes a wave moves, it takes at least this long. waves = blocks / blocks
//            resident on the chip at once.
//   t_dram  = DRAM bytes (L2 model) / B_dram * max(1, W / resident warps per SM)
//            B_dram: the device-to-device copy measured on the H200 in the training run (4.21 TB/s, docs/gpu-runs.md,
//            2026-12-01). Streaming at that rate needs enough loads in flight (Little's law: bandwidth x latency);
//            with fewer than W resident warps per SM the rate falls in proportion.
//   t_l2    = sector bytes the SMs request from L2 / B_l2
//   t_l1    = (128-byte lines of global requests + shared-memory wavefronts) * c_l1 / (132 SMs * 1.98 GHz)
//            L1's data path moves one line (one wavefront) per SM and clock; bank conflicts and scattered lanes cost
//            wavefronts. c_l1 (clocks per wavefront) absorbs what the one-per-clock ideal leaves out.
// Fitted constants (t_fixed, t_wave, t_trip, W, B_l2, c_l1): least squares on log(predicted / measured) over the
// TRAINING set only: the 11 variants the emulator sees of the 2026-12-01 H200 run, at 256 x 4096, 16384 x 4096 and
// 16384 x 8192 (benchmarks/profile-variants/fit_model.py; docs/emulator.md, Profiler: the time model). The held-out
// variants and shapes (heldout.txt, gpu-heldout.sh) were measured afterwards, with these constants fixed.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "profile.hpp"

namespace emu::prof {
namespace {

constexpr double kSMs = 132, kClockHz = 1.98e9;
constexpr double kDramBps = 4.21e12;  // measured (copy), not fitted
// fit_model.py on the training set (its output, pasted):
// fitted on 33 points: fixed_us = 2.726, wave_us = 0.6819, round_trip_us = 0.7239, streaming_warps = 26.92,
// l2_bps = 1.232e+13, l1_clocks = 1.145 (32 of the 33 within 20 %, rms log error 0.107)
constexpr double kFixedUs = 2.726, kWaveUs = 0.6819, kRoundTripUs = 0.7239, kStreamingWarps = 26.92, kL2Bps = 1.232e13,
                 kL1Clocks = 1.145;
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
    return o;
}

Prediction predict(const PredictInput& in, double useful_bytes) {
    Prediction p;
    p.dram_us = in.dram_bytes / kDramBps * 1e6;
    if (in.warps_per_sm > 0 && in.warps_per_sm < kStreamingWarps) p.dram_us *= kStreamingWarps / in.warps_per_sm;
    p.l2_us = in.sector_bytes / kL2Bps * 1e6;
    p.l1_us = in.l1_wavefronts * kL1Clocks / (kSMs * kClockHz) * 1e6;
    p.waves = in.concurrent_blocks > 0 ? in.blocks / in.concurrent_blocks : 1;
    p.floor_us = p.waves * (kWaveUs + kRoundTripUs * in.load_phases);
    p.fixed_us = kFixedUs;
    const double slowest = std::max({p.floor_us, p.dram_us, p.l2_us, p.l1_us});
    p.bound = slowest == p.dram_us ? "DRAM"
              : slowest == p.l2_us ? "L2"
              : slowest == p.l1_us ? "L1 data path"
                                   : "latency (round trips per wave)";
    p.us = p.fixed_us + slowest;
    p.tbs = useful_bytes / (p.us * 1e-6) / 1e12;
    return p;
}

std::string model_description() {
    char buf[768];
    std::snprintf(buf, sizeof buf,
                  "predicted time = %.2f us + max(waves x (%.2f us + round trips x %.2f us), DRAM bytes / %.2f TB/s "
                  "[copy, measured on the H200] x max(1, %.1f / resident warps per SM), sector bytes / %.1f TB/s [L2], "
                  "(global lines + shared wavefronts) x %.2f clocks / (132 SMs x 1.98 GHz) [L1]); constants fitted on "
                  "a training set of H200 runs; DRAM bytes from the L2 model (LRU by reuse distance, 50 MiB); waves = "
                  "blocks / blocks resident at once",
                  kFixedUs, kWaveUs, kRoundTripUs, kDramBps / 1e12, kStreamingWarps, kL2Bps / 1e12, kL1Clocks);
    return buf;
}

}  // namespace emu::prof
