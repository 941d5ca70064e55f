// Occupancy on an H200 and the profiler's predicted time. Everything here is a model, never a measurement: the
// report labels it "predicted".
//
// Time model (per launch):   t = t_fixed + waves * t_wave + max(t_dram, t_l2, t_lsu)
//   t_dram = DRAM bytes (L2 model) / 4.25 TB/s      the device-to-device copy measured on the H200 (docs/gpu-runs.md,
//                                                   2026-11-29: 4.25 and 4.27 TB/s)
//   t_l2   = sector bytes requested / 10 TB/s       L2 bandwidth: a lead (about twice DRAM), not measured here
//   t_lsu  = max(requests / (132 SMs * 1.98 GHz), sectors / (132 * 1.98 GHz * 4))
//                                                   one request and four sectors (128 B) per SM and clock in L1
//   waves  = blocks / (blocks resident on the chip at once)
//   t_fixed = 5.5 us, t_wave = 0.3 us               fitted by hand to the 2026-11-29 H200 rows of rmsnorm_fast and
//                                                   rmsnorm_vec (kernels whose DRAM bytes are the minimum): the time
//                                                   above bytes / copy bandwidth grew from 5.9 us (512 rows) to 9-25 us
//                                                   (16384 rows): launch and drain, plus each wave's dependent
//                                                   latency (reduction, barriers) that the next wave cannot hide.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "profile.hpp"

namespace emu::prof {
namespace {

constexpr double kSMs = 132, kClockHz = 1.98e9;
constexpr double kDramBps = 4.25e12, kL2Bps = 10e12;
constexpr double kFixedUs = 5.5, kWaveUs = 0.3;
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
  p.lsu_us = std::max(in.requests / (kSMs * kClockHz), in.sector_bytes / 32 / (kSMs * kClockHz * 4)) * 1e6;
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
                "predicted time = %.1f us + waves x %.1f us + max(DRAM bytes / %.2f TB/s [copy, measured on the H200], "
                "sector bytes / %.0f TB/s [L2, a lead], requests / (132 SMs x 1.98 GHz)); DRAM bytes from the L2 "
                "model (%s); waves = blocks / blocks resident at once",
                kFixedUs, kWaveUs, kDramBps / 1e12, kL2Bps / 1e12, "LRU by reuse distance, 50 MiB unless EMU_PROFILE_L2_MIB");
  return buf;
}

}  // namespace emu::prof
