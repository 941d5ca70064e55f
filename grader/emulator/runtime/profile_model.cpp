// Occupancy on an H200 and the profiler's predicted time. Everything here is a model, never a measurement: the
// report labels it "predicted".
//
// Time model (per launch):   t = t_fixed + waves * t_wave + max(t_dram * c_occ, t_l2, t_lsu)
//   t_dram = DRAM bytes (L2 model) / 4.25 TB/s      the device-to-device copy measured on the H200 (docs/gpu-runs.md,
//                                                   2026-11-29: 4.25 and 4.27 TB/s; 4.21 on 2026-12-01)
//   c_occ  = max(1, 24 / resident warps per SM)     streaming from HBM needs about 24 warps per SM in flight (Little's
//                                                   law); with fewer, the bandwidth falls in proportion. Fitted to the
//                                                   one low-occupancy variant of the 2026-12-01 run (column_major)
//   t_l2   = sector bytes requested / 10 TB/s       L2 bandwidth: a lead (about twice DRAM), not measured here
//   t_lsu  = max(requests + shared wavefronts, sectors / 4) / (132 SMs * 1.98 GHz)
//                                                   L1's data path: one request or shared-memory wavefront, or four
//                                                   sectors (128 B), per SM and clock; bank conflicts cost wavefronts
//   waves  = blocks / (blocks resident on the chip at once)
//   t_fixed = 5.5 us, t_wave = 0.3 us               fitted by hand to the 2026-11-29 H200 rows of rmsnorm_fast and
//                                                   rmsnorm_vec (kernels whose DRAM bytes are the minimum): the time
//                                                   above bytes / copy bandwidth grew from 5.9 us (512 rows) to 9-25 us
//                                                   (16384 rows): launch and drain, plus each wave's dependent
//                                                   latency (reduction, barriers) that the next wave cannot hide.
// The shared-memory and occupancy terms were added after the 2026-12-01 validation run (docs/emulator.md, Profiler:
// validation, gives the numbers before and after).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "profile.hpp"

namespace emu::prof {
namespace {

constexpr double kSMs = 132, kClockHz = 1.98e9;
constexpr double kDramBps = 4.25e12, kL2Bps = 10e12;
constexpr double kFixedUs = 5.5, kWaveUs = 0.3;
constexpr double kStreamingWarps = 24;
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
  p.l2_us = in.sector_bytes / kL2Bps * 1e6;
  p.lsu_us = std::max(in.requests + in.shared_wavefronts, in.sector_bytes / 32 / 4) / (kSMs * kClockHz) * 1e6;
  if (in.warps_per_sm > 0 && in.warps_per_sm < kStreamingWarps) p.dram_us *= kStreamingWarps / in.warps_per_sm;
  p.waves = in.concurrent_blocks > 0 ? in.blocks / in.concurrent_blocks : 1;
  p.fixed_us = kFixedUs + p.waves * kWaveUs;
  const double mem = std::max({p.dram_us, p.l2_us, p.lsu_us});
  p.bound = mem == p.dram_us ? "DRAM" : mem == p.l2_us ? "L2" : "load/store unit";
  p.us = p.fixed_us + mem;
  p.tbs = useful_bytes / (p.us * 1e-6) / 1e12;
  return p;
}

std::string model_description() {
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "predicted time = %.1f us + waves x %.1f us + max(DRAM bytes / %.2f TB/s [copy, measured on the H200] "
                "x max(1, %.0f / resident warps per SM), sector bytes / %.0f TB/s [L2, a lead], (requests + shared "
                "wavefronts) / (132 SMs x 1.98 GHz)); DRAM bytes from the L2 model (LRU by reuse distance, 50 MiB); "
                "waves = blocks / blocks resident at once",
                kFixedUs, kWaveUs, kDramBps / 1e12, kStreamingWarps, kL2Bps / 1e12);
  return buf;
}

}  // namespace emu::prof
