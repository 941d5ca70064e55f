// Warp collectives: shuffles (PTX shfl.sync), votes and __syncwarp. A collective completes when every lane named in
// its mask has arrived at it; the lane that arrives last computes every participant's result.
#include <emu/intrinsics_detail.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>

#include "engine.hpp"
#include "profile.hpp"

namespace emu::rt {

const char* reduce_name(int op) {
    static const char* const names[] = {"__reduce_add_sync", "__reduce_min_sync", "__reduce_max_sync",
                                        "__reduce_min_sync", "__reduce_max_sync", "__reduce_and_sync",
                                        "__reduce_or_sync",  "__reduce_xor_sync"};
    return names[op & 7];
}

namespace {

std::string hex_mask(unsigned m) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", m);
    return buf;
}

const char* coll_name(Coll c, int op) {
    static const char* const shfl_names[] = {"__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync"};
    static const char* const vote_names[] = {"__ballot_sync", "__any_sync", "__all_sync"};
    switch (c) {
        case Coll::shfl: return shfl_names[op & 3];
        case Coll::vote: return vote_names[op % 3];
        case Coll::reduce: return reduce_name(op);
        case Coll::match: return op ? "__match_all_sync" : "__match_any_sync";
        default: return "__syncwarp";
    }
}

void mask_error(const Thread& t, Coll c, int op, unsigned mask, const char* file, int line, const std::string& what,
                const char* hint) {
    fail_launch("shuffle-mask",
                std::string("Invalid mask in ") + coll_name(c, op) + "(mask " + hex_mask(mask) + ") at " + file + ":" +
                    std::to_string(line) + "\n    called by thread " + thread_coords(t) + " in block " +
                    block_coords() + " (warp " + std::to_string(t.info.warp) + ", lane " + std::to_string(t.info.lane) +
                    ") of kernel " + g_engine.name + "\n    " + what + "\nHint: " + hint,
                cudaErrorLaunchFailure);
}

// Reports the first fault of a mask that arrive() found wrong: the calling lane not in it, lanes that do not exist,
// lanes that have exited. Out of line and cold, so that arrive() stays a few instructions on every lane's way.
[[gnu::noinline, gnu::cold]] void bad_mask(const Thread& t, Coll c, int op, unsigned mask, const char* file, int line) {
    const Engine& e = g_engine;
    const WarpState& ws = e.warps[t.info.warp];
    if (!(mask & (1u << t.info.lane)))
        mask_error(t, c, op, mask, file, line, "the calling lane is not in the mask",
                   "the mask must include every lane that executes the call, the caller included (0xffffffff when the "
                   "whole warp takes part).");
    if (mask & ~ws.exists)
        mask_error(t, c, op, mask, file, line,
                   "the mask names lanes " + lane_set(mask & ~ws.exists) + ", which do not exist: the block has " +
                       std::to_string(e.nthreads) + " threads, so warp " + std::to_string(t.info.warp) + " is partial",
                   "when the block size is not a multiple of 32, build the mask from the lanes that exist (for example "
                   "with __ballot_sync over them).");
    if (mask & ws.exited)
        mask_error(t, c, op, mask, file, line,
                   "the mask names lanes " + lane_set(mask & ws.exited) + ", which have already exited",
                   "lanes that returned early cannot take part; keep every lane of the mask alive until the "
                   "collective, or leave the exited lanes out of the mask.");
}

// Checks the mask against the lanes that can ever arrive, records the wait, and blocks until the collective completes.
inline Thread& arrive(Coll c, int op, unsigned mask, const char* file, int line) {
    if (!g_in_kernel) {
        std::fprintf(stderr, "emu: %s called outside a kernel (%s:%d)\n", coll_name(c, op), file, line);
        std::abort();
    }
    Engine& e = g_engine;
    Thread& t = *e.cur;
    const WarpState& ws = e.warps[t.info.warp];
    if (__builtin_expect(!(mask & (1u << t.info.lane)) || (mask & ~ws.exists) || (mask & ws.exited), 0))
        bad_mask(t, c, op, mask, file, line);
    t.wait.coll = c;
    t.wait.op = op;
    t.wait.mask = mask;
    t.wait.file = file;
    t.wait.line = line;
    return t;
}

inline void join(Thread& t) {
    Engine& e = g_engine;
    WarpState& ws = e.warps[t.info.warp];
    t.state = TState::warp;
    --e.runnable;
    ws.arrived |= 1u << t.info.lane;
    if ((ws.arrived & t.wait.mask) == t.wait.mask) try_complete_warp(t.info.warp, t);
    if (t.state != TState::runnable) switch_away(t);
}

// PTX ISA, shfl.sync: the source lane j of `lane`, or `lane` itself when j falls outside the lane's segment/range.
[[gnu::always_inline]] inline unsigned shfl_source(emu::detail::ShflMode mode, unsigned lane, int b, int c) {
    const int bval = b & 0x1f;
    const int cval = c & 0x1f;
    const int segmask = (c >> 8) & 0x1f;
    const int l = static_cast<int>(lane);
    const int max_lane = (l & segmask) | (cval & ~segmask);
    const int min_lane = l & segmask;
    int j = l;
    bool pval = false;
    switch (mode) {
        case emu::detail::ShflMode::up:
            j = l - bval;
            pval = j >= max_lane;
            break;
        case emu::detail::ShflMode::down:
            j = l + bval;
            pval = j <= max_lane;
            break;
        case emu::detail::ShflMode::bfly:
            j = l ^ bval;
            pval = j <= max_lane;
            break;
        case emu::detail::ShflMode::idx:
            j = min_lane | (bval & ~segmask);
            pval = j <= max_lane;
            break;
    }
    return static_cast<unsigned>(pval ? j : l);
}

}  // namespace

bool complete_activemasks() {
    Engine& e = g_engine;
    bool any = false;
    for (unsigned w = 0; w < e.warps.size(); ++w) {
        WarpState& ws = e.warps[w];
        if (!ws.at_activemask) continue;
        Thread* lanes = &e.threads[w * 32];
        for (unsigned l = 0; l < 32; ++l) {
            if (!(ws.at_activemask >> l & 1u)) continue;
            unsigned together = 0;
            for (unsigned m = 0; m < 32; ++m)
                if ((ws.at_activemask >> m & 1u) && lanes[m].wait.line == lanes[l].wait.line &&
                    std::strcmp(lanes[m].wait.file, lanes[l].wait.file) == 0)
                    together |= 1u << m;
            lanes[l].result = together;
        }
        for (unsigned l = 0; l < 32; ++l) {
            if (!(ws.at_activemask >> l & 1u)) continue;
            lanes[l].state = TState::runnable;
            ++e.runnable;
        }
        ws.at_activemask = 0;
        any = true;
    }
    return any;
}

namespace {
// Lane l (thread r) of a shuffle reads lane j, which is not in the mask.
[[gnu::noinline, gnu::cold]] void shfl_source_error(unsigned mask, const Thread& r, unsigned l, unsigned j) {
    mask_error(*g_engine.cur, Coll::shfl, r.wait.op, mask, r.wait.file, r.wait.line,
               "lane " + std::to_string(l) + " (thread " + thread_coords(r) + ") reads lane " + std::to_string(j) +
                   ", which is not in the mask: on a GPU the value is undefined",
               "every lane a shuffle reads from must be in the mask; use the full mask, or keep the offsets "
               "inside the lanes that take part.");
}
}  // namespace

void try_complete_warp(unsigned warp, const Thread& t) {
    Engine& e = g_engine;
    WarpState& ws = e.warps[warp];
    const unsigned mask = t.wait.mask;
    Thread* lanes = &e.threads[warp * 32];
    // The lanes of the mask in increasing order (m & (m - 1) clears the lowest).
    for (unsigned m = mask; m; m &= m - 1) {
        const Wait& w = lanes[__builtin_ctz(m)].wait;
        // A lane at a different collective (or the same one with another mask) does not match; if it never will, the
        // scheduler's stall check explains it.
        if (w.coll != t.wait.coll || w.op != t.wait.op || w.mask != mask) return;
    }
    switch (t.wait.coll) {
        case Coll::shfl: {
            // One loop per mode, so that shfl_source's choice of mode is made once per shuffle, not once per lane.
            auto move = [&](auto mode) {
                for (unsigned m = mask; m; m &= m - 1) {
                    const unsigned l = static_cast<unsigned>(__builtin_ctz(m));
                    const unsigned j = shfl_source(mode(), l, lanes[l].wait.b, lanes[l].wait.c);
                    if (!(mask >> j & 1u)) shfl_source_error(mask, lanes[l], l, j);
                    lanes[l].result = lanes[j].wait.value;
                }
            };
            using M = emu::detail::ShflMode;
            switch (static_cast<M>(t.wait.op)) {
                case M::idx: move(std::integral_constant<M, M::idx>{}); break;
                case M::up: move(std::integral_constant<M, M::up>{}); break;
                case M::down: move(std::integral_constant<M, M::down>{}); break;
                case M::bfly: move(std::integral_constant<M, M::bfly>{}); break;
            }
            break;
        }
        case Coll::vote: {
            unsigned ballot = 0;
            for (unsigned l = 0; l < 32; ++l)
                if ((mask >> l & 1u) && lanes[l].wait.pred) ballot |= 1u << l;
            std::uint64_t r = ballot;
            if (t.wait.op == static_cast<int>(emu::detail::VoteOp::any)) r = ballot != 0;
            if (t.wait.op == static_cast<int>(emu::detail::VoteOp::all)) r = ballot == mask;
            for (unsigned l = 0; l < 32; ++l)
                if (mask >> l & 1u) lanes[l].result = r;
            break;
        }
        case Coll::reduce: {
            // PTX redux.sync: every lane of the mask gets the reduction over the mask's lanes (add wraps).
            using R = emu::detail::ReduceOp;
            const auto op = static_cast<R>(t.wait.op);
            bool first = true;
            std::uint32_t acc = 0;
            for (unsigned l = 0; l < 32; ++l) {
                if (!(mask >> l & 1u)) continue;
                const auto v = static_cast<std::uint32_t>(lanes[l].wait.value);
                if (first) {
                    acc = v;
                    first = false;
                    continue;
                }
                switch (op) {
                    case R::add: acc += v; break;
                    case R::umin: acc = v < acc ? v : acc; break;
                    case R::umax: acc = v > acc ? v : acc; break;
                    case R::smin: acc = static_cast<std::int32_t>(v) < static_cast<std::int32_t>(acc) ? v : acc; break;
                    case R::smax: acc = static_cast<std::int32_t>(v) > static_cast<std::int32_t>(acc) ? v : acc; break;
                    case R::and_: acc &= v; break;
                    case R::or_: acc |= v; break;
                    case R::xor_: acc ^= v; break;
                }
            }
            for (unsigned l = 0; l < 32; ++l)
                if (mask >> l & 1u) lanes[l].result = acc;
            break;
        }
        case Coll::match: {
            // match.any: the lanes of the mask holding the caller's value; match.all: the mask if all agree, else 0.
            bool all_equal = true;
            for (unsigned l = 0; l < 32; ++l) {
                if (!(mask >> l & 1u)) continue;
                unsigned same = 0;
                for (unsigned m = 0; m < 32; ++m)
                    if ((mask >> m & 1u) && lanes[m].wait.value == lanes[l].wait.value) same |= 1u << m;
                if (same != mask) all_equal = false;
                lanes[l].result = same;
            }
            if (t.wait.op) {
                for (unsigned l = 0; l < 32; ++l) {
                    if (!(mask >> l & 1u)) continue;
                    lanes[l].result = all_equal ? mask : 0;
                    lanes[l].wait.pred = all_equal;
                }
            }
            break;
        }
        case Coll::syncwarp:
            ++ws.epoch;
            on_warp_sync(warp);
            break;
        case Coll::activemask: break;
    }
    if (prof::g_on && t.wait.coll != Coll::activemask) prof::on_collective(static_cast<prof::Coll>(t.wait.coll));
    ws.arrived &= ~mask;
    for (unsigned m = mask; m; m &= m - 1) {
        lanes[__builtin_ctz(m)].state = TState::runnable;
        ++e.runnable;
    }
}

}  // namespace emu::rt

namespace emu::detail {

std::uint64_t shfl(ShflMode mode, unsigned mask, std::uint64_t value, unsigned size, int b, int c, const char* file,
                   int line) {
    using namespace emu::rt;
    Thread& t = arrive(Coll::shfl, static_cast<int>(mode), mask, file, line);
    t.wait.value = value;
    t.wait.size = size;
    t.wait.b = b;
    t.wait.c = c;
    join(t);
    return t.result;
}

unsigned vote(VoteOp op, unsigned mask, int pred, const char* file, int line) {
    using namespace emu::rt;
    Thread& t = arrive(Coll::vote, static_cast<int>(op), mask, file, line);
    t.wait.pred = pred;
    join(t);
    return static_cast<unsigned>(t.result);
}

unsigned warp_reduce(ReduceOp op, unsigned mask, unsigned value, const char* file, int line) {
    using namespace emu::rt;
    Thread& t = arrive(Coll::reduce, static_cast<int>(op), mask, file, line);
    t.wait.value = value;
    join(t);
    return static_cast<unsigned>(t.result);
}

unsigned warp_match(bool all, unsigned mask, std::uint64_t value, int* pred, const char* file, int line) {
    using namespace emu::rt;
    Thread& t = arrive(Coll::match, all ? 1 : 0, mask, file, line);
    t.wait.value = value;
    t.wait.pred = 0;
    join(t);
    if (pred) *pred = t.wait.pred;
    return static_cast<unsigned>(t.result);
}

void syncwarp(unsigned mask, const char* file, int line) {
    using namespace emu::rt;
    Thread& t = arrive(Coll::syncwarp, 0, mask, file, line);
    join(t);
}

unsigned activemask(const char* file, int line) {
    using namespace emu::rt;
    if (!g_in_kernel) return 0;
    Engine& e = g_engine;
    Thread& t = *e.cur;
    t.wait.coll = Coll::activemask;
    t.wait.file = file;
    t.wait.line = line;
    t.state = TState::warp;
    --e.runnable;
    e.warps[t.info.warp].at_activemask |= 1u << t.info.lane;
    switch_away(t);
    return static_cast<unsigned>(t.result);
}

}  // namespace emu::detail
