// cub::WarpScan for emulator builds: CUB's shuffle algorithm (WarpScanShfl, Kogge-Stone with shuffle-up offsets 1, 2,
// 4, 8, 16), run on the emulator's own shuffles, so mask and divergence diagnostics apply to it as to hand-written
// shuffles, and float sums combine in CUB's order. Every lane of the logical warp must call it. LOGICAL_WARP_THREADS
// must be a power of two up to 32 (CUB's shuffle path).
#pragma once

#include <cub/thread/thread_operators.cuh>
#include <cub/util_ptx.cuh>

namespace cub {

template <class T, int LOGICAL_WARP_THREADS = 32, int LEGACY_PTX_ARCH = 0>
class WarpScan {
    static_assert(LOGICAL_WARP_THREADS >= 1 && LOGICAL_WARP_THREADS <= 32 &&
                      (LOGICAL_WARP_THREADS & (LOGICAL_WARP_THREADS - 1)) == 0,
                  "emulator: cub::WarpScan supports power-of-two logical warps of at most 32 threads");

 public:
    struct TempStorage {};  // the shuffle algorithm needs no shared memory
    explicit WarpScan(TempStorage&) {}

    void InclusiveSum(T input, T& output) { InclusiveScan(input, output, cub::Sum()); }
    void InclusiveSum(T input, T& output, T& warp_aggregate) {
        InclusiveScan(input, output, cub::Sum(), warp_aggregate);
    }
    void ExclusiveSum(T input, T& output) { ExclusiveScan(input, output, T(0), cub::Sum()); }
    void ExclusiveSum(T input, T& output, T& warp_aggregate) {
        ExclusiveScan(input, output, T(0), cub::Sum(), warp_aggregate);
    }
    template <class ScanOp>
    void InclusiveScan(T input, T& output, ScanOp op) {
        output = inclusive(input, op);
    }
    template <class ScanOp>
    void InclusiveScan(T input, T& output, ScanOp op, T& warp_aggregate) {
        output = inclusive(input, op);
        warp_aggregate = Broadcast(output, LOGICAL_WARP_THREADS - 1);
    }
    template <class ScanOp>
    void ExclusiveScan(T input, T& output, T initial_value, ScanOp op) {
        T agg;
        ExclusiveScan(input, output, initial_value, op, agg);
    }
    template <class ScanOp>
    void ExclusiveScan(T input, T& output, T initial_value, ScanOp op, T& warp_aggregate) {
        const T inc = inclusive(input, op);
        warp_aggregate = Broadcast(inc, LOGICAL_WARP_THREADS - 1);
        const T before = detail::shuffle_up(mask(), inc, 1, LOGICAL_WARP_THREADS);
        output = logical_lane() == 0 ? initial_value : op(initial_value, before);
    }
    // Without an initial value logical lane 0's output is undefined, as in CUB (left as it was here).
    template <class ScanOp>
    void ExclusiveScan(T input, T& output, ScanOp op) {
        const T inc = inclusive(input, op);
        const T before = detail::shuffle_up(mask(), inc, 1, LOGICAL_WARP_THREADS);
        if (logical_lane() != 0) output = before;
    }
    T Broadcast(T input, unsigned src_lane) {
        return detail::shuffle_idx(mask(), input, int(src_lane), LOGICAL_WARP_THREADS);
    }

 private:
    static unsigned logical_lane() { return LaneId() % LOGICAL_WARP_THREADS; }
    static unsigned mask() {
        const unsigned lane = LaneId();
        const unsigned segment = LOGICAL_WARP_THREADS == 32
                                     ? 0xffffffffu
                                     : (((1u << LOGICAL_WARP_THREADS) - 1u) << (lane - lane % LOGICAL_WARP_THREADS));
        return segment & detail::existing_lanes_mask();
    }
    template <class ScanOp>
    static T inclusive(T input, ScanOp op) {
        T value = input;
        for (int offset = 1; offset < LOGICAL_WARP_THREADS; offset *= 2) {
            const T other = detail::shuffle_up(mask(), value, unsigned(offset), LOGICAL_WARP_THREADS);
            if (int(logical_lane()) >= offset) value = op(other, value);
        }
        return value;
    }
};

}  // namespace cub
