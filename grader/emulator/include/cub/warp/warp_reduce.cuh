// cub::WarpReduce for emulator builds: CUB's shuffle algorithm (WarpReduceShfl), run on the emulator's own
// __shfl_down_sync, so shuffle-mask and divergence diagnostics apply to it as to hand-written shuffles.
//
// CUB's rules, kept here:
//   * every thread of the logical warp must call Sum/Reduce (it is a warp-synchronous collective);
//   * the aggregate is valid in logical lane 0 only; other lanes get partial values (do not use them);
//   * with `valid_items`, only logical lanes [0, valid_items) contribute;
//   * combination order is CUB's: offsets 1, 2, 4, 8, 16, so float sums match CUB on a GPU bit for bit.
// LOGICAL_WARP_THREADS must be a power of two up to 32 (CUB's shuffle path; CUB falls back to shared memory for other
// sizes, which this shim does not provide).
#pragma once

#include <cub/thread/thread_operators.cuh>
#include <cub/util_ptx.cuh>

namespace cub {

template <class T, int LOGICAL_WARP_THREADS = 32, int LEGACY_PTX_ARCH = 0>
class WarpReduce {
    static_assert(LOGICAL_WARP_THREADS >= 1 && LOGICAL_WARP_THREADS <= 32 &&
                      (LOGICAL_WARP_THREADS & (LOGICAL_WARP_THREADS - 1)) == 0,
                  "emulator: cub::WarpReduce supports power-of-two logical warps of at most 32 threads");

 public:
    // The shuffle algorithm needs no shared memory; the type exists so that code declaring it compiles.
    struct TempStorage {};

    explicit WarpReduce(TempStorage& /*temp_storage*/) {}

    T Sum(T input, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
        return Reduce(input, cub::Sum(), LOGICAL_WARP_THREADS, file, line);
    }
    T Sum(T input, int valid_items, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
        return Reduce(input, cub::Sum(), valid_items, file, line);
    }
    template <class ReductionOp>
    T Reduce(T input, ReductionOp op, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
        return Reduce(input, op, LOGICAL_WARP_THREADS, file, line);
    }
    template <class ReductionOp>
    T Reduce(T input, ReductionOp op, int valid_items, const char* file = __builtin_FILE(),
             int line = __builtin_LINE()) {
        return reduce_shfl(input, op, valid_items, file, line);
    }

    // Used by BlockReduce with its own warp geometry.
    template <class ReductionOp>
    static T reduce_shfl(T input, ReductionOp op, int valid_items, const char* file, int line) {
        const unsigned lane = LaneId();
        const unsigned logical_lane = lane % LOGICAL_WARP_THREADS;
        // The lanes of this logical warp that exist (CUB: WarpMask), so the shuffle names exactly the participants.
        const unsigned segment =
            LOGICAL_WARP_THREADS == 32 ? 0xffffffffu : (((1u << LOGICAL_WARP_THREADS) - 1u) << (lane - logical_lane));
        const unsigned mask = segment & detail::existing_lanes_mask();
        // CUB's shfl predicate: a lane combines only a source inside [0, valid_items) of its logical warp.
        const int valid =
            valid_items < 1 ? 1 : (valid_items > LOGICAL_WARP_THREADS ? LOGICAL_WARP_THREADS : valid_items);
        const int last_lane = valid - 1;
        T value = input;
        for (int offset = 1; offset < LOGICAL_WARP_THREADS; offset *= 2) {
            const T other =
                detail::shuffle_down(mask, value, unsigned(offset), LOGICAL_WARP_THREADS, last_lane, file, line);
            if (int(logical_lane) + offset <= last_lane) value = op(value, other);
        }
        return value;
    }
};

}  // namespace cub
