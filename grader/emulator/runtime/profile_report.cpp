// Writes what the profiler counted in one launch: a line of JSON (profile.jsonl, for tools) and a text report
// (report.txt, for people) in the EMU_PROFILE directory, and the picture of warp 0 (warp-N.svg) for the first launch
// of each kernel and shape. Counts of the emulated launch are exact; the DRAM bytes come from the L2 model and the
// time from profile_model.cpp, and both are labelled as predictions.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "profile.hpp"

namespace emu::prof {
namespace {

double ratio(double a, double b) { return b > 0 ? a / b : 0; }

std::string json_str(const std::string& s) {
    std::string o = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') o += '\\';
        if (static_cast<unsigned char>(c) < 0x20) continue;
        o += c;
    }
    return o + "\"";
}

struct Derived {
    double min_bytes, dram, sector_bytes, l2_bytes, l1_hit_sectors, unseen_store_bytes, scale;
    Occupancy occ;
    PredictInput in;
    Prediction pred;
};

Derived derive(const LaunchStats& s) {
    Derived d;
    const double footprint = double(s.l2.footprint_read + s.l2.footprint_write);
    d.scale = ratio(s.predict_blocks, double(s.blocks));
    d.min_bytes = s.min_bytes > 0 ? s.min_bytes : footprint * d.scale;
    // The first block's misses include what every block shares (the weight vector), fetched once; the others' misses
    // are what each block of the full-size launch fetches.
    const double first = double(s.l2.first_block_read), rest = double(s.l2.dram_read) - first;
    const double rest_scale = s.blocks > 1 ? (s.predict_blocks - 1) / double(s.blocks - 1) : 0;
    d.dram = (s.blocks > 1 ? first + rest * rest_scale : first * d.scale) + double(s.l2.dram_write) * d.scale;
    d.sector_bytes = double(s.ld_sectors + s.st_sectors) * 32 * d.scale;
    // Sectors the SMs ask of L2: every store sector, and the loads L1 misses. An SM's first block finds its L1 cold
    // (it misses what the launch's first block missed, the shared weight included); the later blocks of an SM find
    // the shared data there (they miss what the emulated later blocks missed). min(132, blocks) blocks are first.
    const double cold = std::min(132.0, s.predict_blocks), l1_first = double(s.l1.first_block_miss_sectors),
                 l1_rest = double(s.l1.miss_sectors) - l1_first;
    const double ld_miss = s.blocks > 1 ? l1_first * cold + l1_rest / double(s.blocks - 1) * (s.predict_blocks - cold)
                                        : l1_first * s.predict_blocks;
    d.l1_hit_sectors = double(s.ld_sectors) * d.scale - ld_miss;
    d.l2_bytes = (ld_miss + double(s.st_sectors + s.atom_requests) * d.scale) * 32;
    double l1_lines = double(s.ld_lines + s.st_lines + s.atom_requests + s.sh_wavefronts) * d.scale;
    // A launch that loads but was seen to store nothing, when the program states the bytes it must move: the bytes
    // the loads do not account for are stores the emulator missed (a value a call returns, stored: Limits). They are
    // counted as written once, coalesced, so that the prediction does not leave the output out.
    d.unseen_store_bytes = 0;
    if (s.min_bytes > 0 && s.st_requests + s.atom_requests == 0 && s.ld_requests > 0)
        d.unseen_store_bytes = std::max(0.0, s.min_bytes - double(s.l2.footprint_read) * d.scale);
    d.dram += d.unseen_store_bytes;
    d.l2_bytes += d.unseen_store_bytes;
    d.sector_bytes += d.unseen_store_bytes;
    l1_lines += d.unseen_store_bytes / 128;
    d.occ = occupancy(static_cast<unsigned>(s.threads_per_block), s.regs, s.ptxas_smem + s.dynamic_shared);
    PredictInput in;
    in.blocks = s.predict_blocks;
    in.concurrent_blocks = s.concurrent_blocks;
    in.dram_bytes = d.dram;
    in.sector_bytes = d.sector_bytes;
    in.l2_bytes = d.l2_bytes;
    // Atomics are served in L2, not L1's data path: one line each is their L1 cost.
    in.l1_wavefronts = l1_lines;
    in.warps_per_sm = s.concurrent_blocks / 132.0 * double((s.threads_per_block + 31) / 32);
    in.blocks_per_sm = s.concurrent_blocks / 132.0;
    in.busiest_sm_blocks = std::ceil(s.predict_blocks / 132.0);
    in.load_phases = s.load_phases;
    in.miss_phases = s.miss_phases;
    const double dram_written = double(s.l2.dram_write) * d.scale + d.unseen_store_bytes;
    in.store_fraction = d.dram > 0 ? std::min(1.0, dram_written / d.dram) : 0;
    in.barriers_per_block = ratio(double(s.barriers), double(s.blocks));
    d.in = in;
    d.pred = predict(in, d.min_bytes);
    return d;
}

std::string json(const LaunchStats& s, const Derived& d) {
    std::ostringstream o;
    o.precision(6);
    o << "{\"kernel\":" << json_str(s.kernel) << ",\"label\":" << json_str(s.label) << ",\"grid\":[" << s.grid[0] << ","
      << s.grid[1] << "," << s.grid[2] << "],\"block\":[" << s.block[0] << "," << s.block[1] << "," << s.block[2]
      << "],\"blocks\":" << s.blocks << ",\"predict_blocks\":" << s.predict_blocks
      << ",\"ld_requests\":" << s.ld_requests << ",\"ld_sectors\":" << s.ld_sectors << ",\"ld_bytes\":" << s.ld_bytes
      << ",\"ld_ideal\":" << s.ld_ideal << ",\"st_ideal\":" << s.st_ideal << ",\"ld_lines\":" << s.ld_lines
      << ",\"st_requests\":" << s.st_requests << ",\"st_sectors\":" << s.st_sectors << ",\"st_lines\":" << s.st_lines
      << ",\"st_bytes\":" << s.st_bytes << ",\"atom_requests\":" << s.atom_requests
      << ",\"sh_ld_requests\":" << s.sh_ld_requests << ",\"sh_st_requests\":" << s.sh_st_requests
      << ",\"sh_wavefronts\":" << s.sh_wavefronts << ",\"sh_ideal_wavefronts\":" << s.sh_ideal_wavefronts
      << ",\"sh_bank_conflicts\":" << (s.sh_wavefronts - s.sh_ideal_wavefronts) << ",\"barriers\":" << s.barriers
      << ",\"shuffles\":" << s.shuffles << ",\"votes\":" << s.votes << ",\"syncwarps\":" << s.syncwarps
      << ",\"partial_requests\":" << s.partial_requests << ",\"dram_read\":" << s.l2.dram_read
      << ",\"dram_write\":" << s.l2.dram_write << ",\"footprint_read\":" << s.l2.footprint_read
      << ",\"footprint_write\":" << s.l2.footprint_write << ",\"regs\":" << s.regs
      << ",\"concurrent_blocks\":" << s.concurrent_blocks << ",\"occupancy\":" << d.occ.fraction
      << ",\"instance\":" << json_str(s.instance) << ",\"l1_bytes\":" << s.l1_bytes
      << ",\"l1_hit\":" << s.l1.hit_sectors << ",\"l1_miss\":" << s.l1.miss_sectors
      << ",\"l1_first_block_miss\":" << s.l1.first_block_miss_sectors
      << ",\"predicted_l1_hit_sectors\":" << d.l1_hit_sectors << ",\"predicted_l2_bytes\":" << d.l2_bytes
      << ",\"unseen_store_bytes\":" << d.unseen_store_bytes << ",\"min_bytes\":" << d.min_bytes
      << ",\"predicted_dram_bytes\":" << d.dram << ",\"traffic_ratio\":" << ratio(d.dram, d.min_bytes)
      << ",\"sector_ratio\":" << ratio(d.sector_bytes, d.min_bytes) << ",\"predicted_us\":" << d.pred.us
      << ",\"predicted_tbs\":" << d.pred.tbs << ",\"bound\":"
      << json_str(d.pred.bound)
      // The model's inputs, as predict() saw them (benchmarks/profile-variants/fit_model.py fits its constants on them).
      << ",\"model\":{\"dram_bytes\":" << d.in.dram_bytes << ",\"sector_bytes\":" << d.in.sector_bytes
      << ",\"l1_wavefronts\":" << d.in.l1_wavefronts << ",\"blocks\":" << d.in.blocks
      << ",\"concurrent_blocks\":" << d.in.concurrent_blocks << ",\"warps_per_sm\":" << d.in.warps_per_sm
      << ",\"load_phases\":" << d.in.load_phases << ",\"l2_bytes\":" << d.in.l2_bytes
      << ",\"blocks_per_sm\":" << d.in.blocks_per_sm << ",\"busiest_sm_blocks\":" << d.in.busiest_sm_blocks
      << ",\"barriers_per_block\":" << d.in.barriers_per_block << ",\"miss_phases\":" << d.in.miss_phases
      << ",\"store_fraction\":" << d.in.store_fraction << "}"
      << "}";
    return o.str();
}

std::string text(const LaunchStats& s, const Derived& d) {
    std::ostringstream o;
    char b[512];
    auto line = [&](const char* fmt, auto... a) {
        std::snprintf(b, sizeof b, fmt, a...);
        o << b << "\n";
    };
    o << "== " << s.kernel << (s.label.empty() ? "" : "  [" + s.label + "]") << "\n";
    line("   emulated: grid (%u,%u,%u) x block (%u,%u,%u), %" PRIu64
         " blocks; scaled to %.0f blocks for the prediction",
         s.grid[0], s.grid[1], s.grid[2], s.block[0], s.block[1], s.block[2], s.blocks, s.predict_blocks);
    line("   global loads   %10" PRIu64 " requests  %12" PRIu64 " bytes  %6.2f sectors/request (ideal %.2f)",
         s.ld_requests, s.ld_bytes, ratio(s.ld_sectors, s.ld_requests), ratio(s.ld_ideal, s.ld_requests));
    line("   global stores  %10" PRIu64 " requests  %12" PRIu64 " bytes  %6.2f sectors/request (ideal %.2f)",
         s.st_requests, s.st_bytes, ratio(s.st_sectors, s.st_requests), ratio(s.st_ideal, s.st_requests));
    if (s.atom_requests) line("   global atomics %10" PRIu64 " requests", s.atom_requests);
    line(
        "   DRAM (L2 model, predicted): %.4g bytes = %.2fx the minimum %.4g (%s); no-reuse bound (every sector "
        "requested from DRAM): %.2fx",
        d.dram, ratio(d.dram, d.min_bytes), d.min_bytes,
        s.min_bytes > 0 ? "stated by the program" : "bytes the launch touched", ratio(d.sector_bytes, d.min_bytes));
    line("   shared memory  %10" PRIu64 " loads %" PRIu64
         " stores, %.2f wavefronts/request, %.2f bank conflicts/request",
         s.sh_ld_requests, s.sh_st_requests, ratio(s.sh_wavefronts, s.sh_ld_requests + s.sh_st_requests),
         ratio(s.sh_wavefronts - s.sh_ideal_wavefronts, s.sh_ld_requests + s.sh_st_requests));
    const double warps = double(s.blocks) * double((s.threads_per_block + 31) / 32);
    line("   sync           %.2f barriers/block, %.2f shuffles + %.2f votes + %.2f __syncwarp per warp, %" PRIu64
         " requests made by part of a warp (divergence)",
         ratio(s.barriers, s.blocks), ratio(s.shuffles, warps), ratio(s.votes, warps), ratio(s.syncwarps, warps),
         s.partial_requests);
    line(
        "   L1 (model, predicted): %.0f%% of global-load sectors hit (%.4g of %.4g), L1 %.0f KiB after the shared "
        "carveout; asked of L2: %.4g bytes",
        100 * ratio(d.l1_hit_sectors, double(s.ld_sectors) * d.scale), d.l1_hit_sectors, double(s.ld_sectors) * d.scale,
        double(s.l1_bytes) / 1024, d.l2_bytes);
    const std::string regs = s.ptxas_known ? std::to_string(s.regs) + " (nvcc -Xptxas -v" +
                                                 (s.instance.empty() ? "" : ", " + s.instance) + ")"
                                           : "unknown (no nvcc -Xptxas -v table: EMU_PROFILE_PTXAS)";
    line("   occupancy      %u blocks/SM, %.0f%% of 64 warps, limited by %s; registers/thread %s; shared %zu B/block",
         d.occ.blocks_per_sm, d.occ.fraction * 100, d.occ.limit.c_str(), regs.c_str(),
         s.ptxas_known ? s.ptxas_smem + s.dynamic_shared : s.static_shared_seen + s.dynamic_shared);
    line(
        "   PREDICTED H200 (a model, not a measurement): %.1f us, %.2f TB/s of useful bytes, bound by %s "
        "(DRAM %.1f, L2 %.1f, L1 %.1f, latency not hidden %.1f, one block %.1f, fixed %.1f us; %.1f waves)",
        d.pred.us, d.pred.tbs, d.pred.bound, d.pred.dram_us, d.pred.l2_us, d.pred.l1_us, d.pred.floor_us,
        d.pred.block_us, d.pred.fixed_us, d.pred.waves);
    if (s.ld_requests + s.st_requests + s.atom_requests == 0)
        o << "   WARNING: no global memory access was seen. The prediction is meaningless.\n";
    else if (s.st_requests + s.atom_requests == 0)
        o << "   WARNING: loads but no global store were seen. The emulator misses a store of a struct a call returns "
             "when the store is not a statement of its own (a = y[i] = f(v), a store inside a condition, a comma "
             "expression or a for-header; docs/emulator.md, Memory checker: limits); write it as its own statement "
             "(y[i] = f(v);) to have it counted. The DRAM bytes and the prediction leave the stores out.\n";
    if (d.unseen_store_bytes > 0)
        line(
            "   (the prediction counts the %.4g bytes the program states it moves beyond the loads seen as stores "
            "written once, coalesced: an assumption, not a count)",
            d.unseen_store_bytes);
    o << "   per line:\n";
    for (const LineStat& l : s.lines) {
        if (l.shared)
            line("     %-40s shared %-5s %8" PRIu64 " requests  %5.2f wavefronts/request (ideal %.2f)", l.where.c_str(),
                 l.write ? "store" : "load", l.requests, ratio(l.wavefronts, l.requests),
                 ratio(l.ideal_wavefronts, l.requests));
        else
            line("     %-40s global %-5s %8" PRIu64 " requests  %5.2f sectors/request (ideal %.2f)", l.where.c_str(),
                 l.write ? "store" : "load", l.requests, ratio(l.sectors, l.requests), ratio(l.ideal, l.requests));
    }
    return o.str();
}

}  // namespace

void write_launch(const LaunchStats& s) {
    static std::set<std::string> drawn;
    static unsigned pictures = 0;
    // warp-<kernel>-<label>.svg, in letters, digits, '-' and '_' (several processes write into one folder).
    auto file_name = [&] {
        std::string n = "warp-" + s.kernel + (s.label.empty() ? "" : "-" + s.label);
        for (char& c : n)
            if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '_';
        return n + ".svg";
    };
    const std::string dir = profile_dir();
    const Derived d = derive(s);
    std::ofstream(dir + "/profile.jsonl", std::ios::app) << json(s, d) << "\n";
    std::string t = text(s, d);
    if (drawn.insert(s.kernel + "|" + s.label).second && !s.trace.empty() && pictures < 32) {
        ++pictures;
        const std::string svg = dir + "/" + file_name();
        std::ofstream(svg) << render_trace_svg(s);
        t += render_trace_text(s) + "   picture: " + svg + "\n";
    }
    // The model is stated once, at the top of the report (several processes may append to one report).
    const std::string path = dir + "/report.txt";
    const bool fresh = std::ifstream(path).peek() == std::ifstream::traits_type::eof();
    std::ofstream(path, std::ios::app) << (fresh ? "Emulator profile. Counts are the emulator's; " +
                                                       model_description() + ": a PREDICTION, not a measurement.\n\n"
                                                 : std::string())
                                       << t << "\n";
}

}  // namespace emu::prof
