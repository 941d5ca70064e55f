// How the reference kernels spread a row over threads, and the rule that picks that shape from the hidden size.
// Host code (the launchers and the benchmark's tuning sweep include it).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace rmsref {

// lanes > 0: `lanes` consecutive threads (a power of two, 4..32) share one row and a block of `threads` holds
//            threads / lanes rows; the row sum is a few shuffles, no barrier.
// lanes == 0: the whole block (`threads`, a multiple of 32) works on one row; the row sum needs one barrier.
// lanes < 0: the row is longer than the registers of a block hold (max_threads): two passes over memory.
// Each thread keeps `packs` 16-byte packs of the row in registers (plus at most a few single elements of the
// misaligned prefix and the tail).
struct LaunchShape {
    int lanes;
    int packs;
    int threads;
    // The weight's loads issued before the row's reduction (their latency hidden behind it) or after it (fewer
    // registers held across it, so more threads fit on a multiprocessor).
    bool weight_early = true;
    // kOptCap | kOptStream | kOptLoadsFirst | kOptSharedH below: hints that only whole-block rows of at most 4 packs
    // a thread have instances for, and only rows whose operands are all 16-byte aligned use (a misaligned row runs
    // the plain instance).
    int opt = 0;
    // Launched with programmatic stream serialization (programmatic dependent launch): the next launch's blocks are
    // scheduled while this one's last blocks drain, and each waits for the previous grid before its first load (every
    // kernel here starts so: common.cuh, start_after_previous_grid). A launch mode, not a kernel: the rule never
    // picks it; the benchmark measures it beside the plain launch, labelled "+pdl", against copies launched the same
    // way.
    bool pdl = false;
};

// The options (bit flags of LaunchShape::opt and of the kernels' OPT parameter).
// kOptCap: __launch_bounds__ asks for 2048 threads per multiprocessor, so ptxas keeps to 32 registers a thread.
// One wave of 512 rows needs 4 blocks of up to 512 threads on each of the H200's 132 multiprocessors; at 33 to 64
// registers only 2 or 3 fit and the last rows run in a second, nearly empty wave.
// kOptStream: the row (x, and the fused add's residual) is read and the output written with the streaming hint
// (ld.global.cs / st.global.cs: evict first), since neither is touched again, so that L1 and L2 keep the weight,
// which every row rereads.
// kOptLoadsFirst: every pack's load issued before the first instruction that uses one (the norm: the squares after
// all of x's loads; the fused add: the adds after all loads of x and of the old residual; both: a late weight's loads
// before the first store), as Triton's one-step kernel orders them. Without it each pack's squares sit in its load's
// branch (the fused add: each pack's loads follow the previous pack's residual store) and each late weight load
// follows the previous store, so a thread may wait for one pack before it asks for the next; with it a thread holds
// more registers (bf16 norm block x4 weight late: 32 -> 39).
// kOptSharedH (the fused add only): the new residual h = x + r waits for the row's sum in shared memory instead of
// registers (each thread its own slots: no barrier beyond the reduction's). With kOptLoadsFirst the loads of x and of
// the old residual then hold the registers alone: bf16 block x2 weight late 42 -> 28 registers (38 -> 31 streaming),
// two 1024-thread blocks a multiprocessor instead of one; the cost is a shared store and load of each pack.
constexpr int kOptCap = 1;
constexpr int kOptStream = 2;
constexpr int kOptLoadsFirst = 4;
constexpr int kOptSharedH = 8;

// The (lanes, packs) pairs the kernel files instantiate; anything else is refused by their dispatch.
constexpr int kBlockPacks[] = {1, 2, 4, 8};
constexpr int kGroupLanes[] = {4, 8, 16, 32};
constexpr int kGroupPacks[] = {1, 2, 4};
constexpr int kMaxThreads = 1024;

// Threads a block of that shape may have, and what its kernel is compiled for (__launch_bounds__): warp groups run in
// blocks of at most 256 threads; a whole-block row with 8 packs per thread needs more than the 64 registers a
// 1024-thread block leaves each thread (x and the weight: 2 x 8 x 4 registers), so it stops at 512.
constexpr int max_threads(int lanes, int packs) { return lanes > 0 ? 256 : packs >= 8 ? 512 : kMaxThreads; }

inline int ceil_div(int a, int b) { return (a + b - 1) / b; }

// Packs a row of n elements needs at most (the body of a misaligned row holds fewer whole packs, never more).
inline int packs_per_row(int n, int elem_bytes) { return ceil_div(n, 16 / elem_bytes); }

// Shape of a block working alone on a row with `packs` packs per thread: threads rounded up to a whole warp.
inline LaunchShape block_shape(int row_packs, int packs, bool weight_early = true) {
    return {0, packs, ceil_div(ceil_div(row_packs, packs), 32) * 32, weight_early};
}

// Batches of at most this many rows are "short" (decode-sized: source document 001's 2 x 256); the rule treats
// them apart because they cannot fill the GPU with rows, only with threads per row.
constexpr int kShortBatchRows = 2048;

// A line of the rule's table: for whole-block rows, packs per thread, when the weight is loaded, the options, and
// `fill`: 512 threads where the fewest that hold the row would be between 256 and 512 (the last packs of some
// threads empty; more warps to hide the reduction's latency, and still 4 blocks a multiprocessor).
struct RuleEntry {
    int packs;
    bool weight_early;
    int opt = 0;
    bool fill = false;
};
struct RuleLine {
    int max_n;  // the line holds for hidden sizes up to this one (past the table's last line, the last line)
    RuleEntry entry;
};

// The shape for rows of n elements given a table entry. Rows of at most 32 packs go to part of a warp (a whole block
// on so short a row would leave most of its threads without data); longer rows to a whole block with the entry's
// packs per thread, fewer where the block would be a single warp, more where it would pass its thread limit, and two
// passes where even that does not hold the row.
inline LaunchShape shape_for(int n, int elem_bytes, RuleEntry e) {
    const int row_packs = packs_per_row(n, elem_bytes);
    if (row_packs <= 32) {
        int lanes = 4;
        while (lanes < row_packs) lanes *= 2;
        return {lanes, 1, 128, e.weight_early};
    }
    int packs = e.packs;
    while (packs > 1 && block_shape(row_packs, packs).threads < 64) packs /= 2;
    for (; packs <= 8; packs *= 2) {
        LaunchShape s = block_shape(row_packs, packs, e.weight_early);
        if (s.threads > max_threads(0, packs)) continue;
        if (e.fill && s.threads > 256 && s.threads < 512 && 512 <= max_threads(0, packs)) s.threads = 512;
        if (packs <= 4) s.opt = e.opt;  // the options have instances up to 4 packs a thread
        return s;
    }
    return {-1, 0, kMaxThreads, true};
}

}  // namespace rmsref

#include "rule_table.h"

namespace rmsref {

// The rule of lesson 04's reference kernels: the line of rule_table.h (chosen from a tuning sweep by make_rule.py)
// for this element size, op, batch length (at most kShortBatchRows rows: the 512-row sweep's lines; more: the large
// shapes') and hidden size.
template <std::size_t K>
inline RuleEntry rule_line(const RuleLine (&table)[K], int n) {
    for (const RuleLine& line : table)
        if (n <= line.max_n) return line.entry;
    return table[K - 1].entry;
}
inline RuleEntry rule_entry(int elem_bytes, bool fused, bool short_batch, int n) {
    if (elem_bytes == 4) {
        if (fused) return short_batch ? rule_line(kRuleFp32FusedShort, n) : rule_line(kRuleFp32FusedLong, n);
        return short_batch ? rule_line(kRuleFp32NormShort, n) : rule_line(kRuleFp32NormLong, n);
    }
    if (fused) return short_batch ? rule_line(kRuleHalfFusedShort, n) : rule_line(kRuleHalfFusedLong, n);
    return short_batch ? rule_line(kRuleHalfNormShort, n) : rule_line(kRuleHalfNormLong, n);
}
inline LaunchShape choose_shape(int n, int elem_bytes, int m, bool fused) {
    return shape_for(n, elem_bytes, rule_entry(elem_bytes, fused, m <= kShortBatchRows, n));
}

// Every shape the kernels can run a row of n elements with, for the benchmark's tuning sweep: whole blocks with
// 1, 2, 4 or 8 packs per thread (as few threads as hold the row, and also 512 threads with the last packs of some
// threads empty, where the fewest would be between 256 and 512: Triton's one-step kernel's shape, one wave of 512
// rows when 4 such blocks fit a multiprocessor), those of at most 4 packs also with each option (capped, streaming,
// both), and warp groups of 4..32 lanes (128-thread blocks) whose registers hold the row without more than doubling
// it; each with the weight loaded early and late.
// Without `options` (lesson 05's LayerNorm kernels, which have no instances for them), no capped or streaming shapes;
// with `loads_first` (lesson 04's norm and fused add), each optioned shape also with kOptLoadsFirst; with `shared_h`
// (lesson 04's fused add), each of those also with kOptSharedH.
inline std::vector<LaunchShape> candidate_shapes(int n, int elem_bytes, bool options = true, bool loads_first = false,
                                                 bool shared_h = false) {
    std::vector<LaunchShape> out;
    const int row_packs = packs_per_row(n, elem_bytes);
    for (bool early : {true, false}) {
        for (int packs : kBlockPacks) {
            LaunchShape s = block_shape(row_packs, packs, early);
            if (s.threads > max_threads(0, packs)) continue;
            std::vector<int> threads = {s.threads};
            if (s.threads > 256 && s.threads < 512 && 512 <= max_threads(0, packs)) threads.push_back(512);
            for (int t : threads) {
                s.threads = t;
                const int last = options && packs <= 4 ? (kOptCap | kOptStream | (loads_first ? kOptLoadsFirst : 0) |
                                                          (loads_first && shared_h ? kOptSharedH : 0))
                                                       : 0;
                for (int opt = 0; opt <= last; ++opt) {
                    s.opt = opt;
                    out.push_back(s);
                }
            }
        }
        for (int lanes : kGroupLanes) {
            for (int packs : kGroupPacks) {
                const int capacity = lanes * packs;
                if (capacity >= row_packs && (capacity < 2 * row_packs || capacity <= 4))
                    out.push_back({lanes, packs, 128, early});
            }
        }
    }
    return out;
}

inline std::string shape_name(const LaunchShape& s) {
    if (s.lanes < 0) return "two-pass/" + std::to_string(s.threads) + (s.pdl ? "+pdl" : "");
    // No comma: the name is a CSV field.
    const std::string w = std::string(s.weight_early ? "" : "+w-late") + (s.opt & kOptCap ? "+cap" : "") +
                          (s.opt & kOptStream ? "+cs" : "") + (s.opt & kOptLoadsFirst ? "+first" : "") +
                          (s.opt & kOptSharedH ? "+smem" : "") + (s.pdl ? "+pdl" : "");
    if (s.lanes == 0) return "block" + std::to_string(s.threads) + "x" + std::to_string(s.packs) + w;
    return "lanes" + std::to_string(s.lanes) + "x" + std::to_string(s.packs) + "/" + std::to_string(s.threads) + w;
}

}  // namespace rmsref
