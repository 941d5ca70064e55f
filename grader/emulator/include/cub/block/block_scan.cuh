// cub::BlockScan for emulator builds: block-wide prefix scans (ExclusiveSum, InclusiveSum, ExclusiveScan,
// InclusiveScan), one item or an array of items per thread, with the block aggregate or a block prefix callback, in
// the caller's __shared__ TempStorage, so the emulator checks it like any user code: a second use of one TempStorage
// without a __syncthreads() in between is reported as a shared-memory race, as on a GPU (CUB's documentation requires
// that barrier).
//
// The algorithm is the plainest one with CUB's contract: each thread folds its own items, writes the total to the
// TempStorage, __syncthreads, thread 0 scans the totals in thread order, __syncthreads, each thread reads its prefix
// (from the next thread's slot) and scans its items. Every thread of the block must call it (it holds barriers); the scan operator need only be
// associative (combined in thread and item order, as CUB does). Results of integer and other exact scans equal
// CUB's; float sums may differ from a GPU's warp-scan order in the last bits. ALGORITHM (RAKING, RAKING_MEMOIZE,
// WARP_SCANS) is accepted and changes nothing. The prefix callback is called by every thread of warp 0 with the
// block aggregate, and lane 0's answer is the block's prefix, as in CUB.
#pragma once

#include <cub/thread/thread_operators.cuh>
#include <cub/util_ptx.cuh>
#include <emu/shared.hpp>
#include <new>
#include <utility>

namespace cub {

enum BlockScanAlgorithm {
    BLOCK_SCAN_RAKING,
    BLOCK_SCAN_RAKING_MEMOIZE,
    BLOCK_SCAN_WARP_SCANS,
};

template <class T, int BLOCK_DIM_X, BlockScanAlgorithm ALGORITHM = BLOCK_SCAN_RAKING, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockScan {
    static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
    static_assert(BLOCK_THREADS >= 1 && BLOCK_THREADS <= 1024, "cub::BlockScan: 1 to 1024 threads");
    // Slots: one per thread (its total, then its exclusive prefix), the block aggregate, the callback's prefix.
    static constexpr int SLOTS = BLOCK_THREADS + 2;

 public:
    struct TempStorage {
        alignas(T) unsigned char slots[sizeof(T) * SLOTS];
    };

    explicit BlockScan(TempStorage& temp_storage)
        : storage_(temp_storage), linear_tid_(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z)) {}
    BlockScan() : BlockScan(private_storage()) {}

    // ---- sums -------------------------------------------------------------------------------------------------
    void ExclusiveSum(T input, T& output) { ExclusiveScan(input, output, T(0), cub::Sum()); }
    void ExclusiveSum(T input, T& output, T& block_aggregate) {
        ExclusiveScan(input, output, T(0), cub::Sum(), block_aggregate);
    }
    template <class PrefixOp>
    void ExclusiveSum(T input, T& output, PrefixOp& prefix_op) {
        ExclusiveScan(input, output, cub::Sum(), prefix_op);
    }
    template <int N>
    void ExclusiveSum(T (&input)[N], T (&output)[N]) {
        ExclusiveScan(input, output, T(0), cub::Sum());
    }
    template <int N>
    void ExclusiveSum(T (&input)[N], T (&output)[N], T& block_aggregate) {
        ExclusiveScan(input, output, T(0), cub::Sum(), block_aggregate);
    }
    template <int N, class PrefixOp>
    void ExclusiveSum(T (&input)[N], T (&output)[N], PrefixOp& prefix_op) {
        ExclusiveScan(input, output, cub::Sum(), prefix_op);
    }
    void InclusiveSum(T input, T& output) { InclusiveScan(input, output, cub::Sum()); }
    void InclusiveSum(T input, T& output, T& block_aggregate) {
        InclusiveScan(input, output, cub::Sum(), block_aggregate);
    }
    template <class PrefixOp>
    void InclusiveSum(T input, T& output, PrefixOp& prefix_op) {
        InclusiveScan(input, output, cub::Sum(), prefix_op);
    }
    template <int N>
    void InclusiveSum(T (&input)[N], T (&output)[N]) {
        InclusiveScan(input, output, cub::Sum());
    }
    template <int N>
    void InclusiveSum(T (&input)[N], T (&output)[N], T& block_aggregate) {
        InclusiveScan(input, output, cub::Sum(), block_aggregate);
    }
    template <int N, class PrefixOp>
    void InclusiveSum(T (&input)[N], T (&output)[N], PrefixOp& prefix_op) {
        InclusiveScan(input, output, cub::Sum(), prefix_op);
    }

    // ---- scans with an operator ---------------------------------------------------------------------------------
    // Exclusive with an initial value (thread 0's first output), with the aggregate, or with a prefix callback.
    template <class ScanOp>
    void ExclusiveScan(T input, T& output, T initial_value, ScanOp scan_op) {
        T agg;
        one<false>(input, output, scan_op, &initial_value, agg, nullptr_prefix());
    }
    template <class ScanOp>
    void ExclusiveScan(T input, T& output, T initial_value, ScanOp scan_op, T& block_aggregate) {
        one<false>(input, output, scan_op, &initial_value, block_aggregate, nullptr_prefix());
    }
    // Without an initial value thread 0's output is undefined, as in CUB (left as it was here).
    template <class ScanOp>
    void ExclusiveScan(T input, T& output, ScanOp scan_op) {
        T agg;
        one<false>(input, output, scan_op, nullptr, agg, nullptr_prefix());
    }
    template <class ScanOp, class PrefixOp, class = decltype(std::declval<PrefixOp&>()(std::declval<T>()))>
    void ExclusiveScan(T input, T& output, ScanOp scan_op, PrefixOp& prefix_op) {
        T agg;
        one<false>(input, output, scan_op, nullptr, agg, &prefix_op);
    }
    template <int N, class ScanOp>
    void ExclusiveScan(T (&input)[N], T (&output)[N], T initial_value, ScanOp scan_op) {
        T agg;
        items<false>(input, output, scan_op, &initial_value, agg, nullptr_prefix());
    }
    template <int N, class ScanOp>
    void ExclusiveScan(T (&input)[N], T (&output)[N], T initial_value, ScanOp scan_op, T& block_aggregate) {
        items<false>(input, output, scan_op, &initial_value, block_aggregate, nullptr_prefix());
    }
    template <int N, class ScanOp>
    void ExclusiveScan(T (&input)[N], T (&output)[N], ScanOp scan_op) {
        T agg;
        items<false>(input, output, scan_op, nullptr, agg, nullptr_prefix());
    }
    template <int N, class ScanOp, class PrefixOp, class = decltype(std::declval<PrefixOp&>()(std::declval<T>()))>
    void ExclusiveScan(T (&input)[N], T (&output)[N], ScanOp scan_op, PrefixOp& prefix_op) {
        T agg;
        items<false>(input, output, scan_op, nullptr, agg, &prefix_op);
    }
    template <class ScanOp>
    void InclusiveScan(T input, T& output, ScanOp scan_op) {
        T agg;
        one<true>(input, output, scan_op, nullptr, agg, nullptr_prefix());
    }
    template <class ScanOp>
    void InclusiveScan(T input, T& output, ScanOp scan_op, T& block_aggregate) {
        one<true>(input, output, scan_op, nullptr, block_aggregate, nullptr_prefix());
    }
    template <class ScanOp, class PrefixOp, class = decltype(std::declval<PrefixOp&>()(std::declval<T>()))>
    void InclusiveScan(T input, T& output, ScanOp scan_op, PrefixOp& prefix_op) {
        T agg;
        one<true>(input, output, scan_op, nullptr, agg, &prefix_op);
    }
    template <int N, class ScanOp>
    void InclusiveScan(T (&input)[N], T (&output)[N], ScanOp scan_op) {
        T agg;
        items<true>(input, output, scan_op, nullptr, agg, nullptr_prefix());
    }
    template <int N, class ScanOp>
    void InclusiveScan(T (&input)[N], T (&output)[N], ScanOp scan_op, T& block_aggregate) {
        items<true>(input, output, scan_op, nullptr, block_aggregate, nullptr_prefix());
    }
    template <int N, class ScanOp, class PrefixOp, class = decltype(std::declval<PrefixOp&>()(std::declval<T>()))>
    void InclusiveScan(T (&input)[N], T (&output)[N], ScanOp scan_op, PrefixOp& prefix_op) {
        T agg;
        items<true>(input, output, scan_op, nullptr, agg, &prefix_op);
    }

 private:
    struct NoPrefix {
        T operator()(T v) { return v; }
    };
    static NoPrefix* nullptr_prefix() { return nullptr; }

    static TempStorage& private_storage() {
        static emu::SharedSlot slot;
        return emu::shared_var<TempStorage>(&slot, "cub::BlockScan private TempStorage");
    }
    T* slot(int i) { return reinterpret_cast<T*>(storage_.slots) + i; }

    template <bool INCLUSIVE, class ScanOp, class PrefixOp>
    void one(T input, T& output, ScanOp op, const T* initial, T& aggregate, PrefixOp* prefix) {
        T in[1] = {input};
        T out[1];
        items<INCLUSIVE>(in, out, op, initial, aggregate, prefix);
        // Without an initial value thread 0's exclusive output is undefined: it keeps what it held.
        if (INCLUSIVE || initial || prefix || linear_tid_ != 0) output = out[0];
    }

    template <bool INCLUSIVE, int N, class ScanOp, class PrefixOp>
    void items(T (&input)[N], T (&output)[N], ScanOp op, const T* initial, T& aggregate, PrefixOp* prefix) {
        T in[N];
        for (int i = 0; i < N; ++i) in[i] = input[i];  // input and output may be the same array
        T total = in[0];
        for (int i = 1; i < N; ++i) total = op(total, in[i]);
        // A race reported on the next line means this TempStorage's previous use was not followed by a
        // __syncthreads(): a thread may still be reading its prefix from it.
        new (slot(linear_tid_)) T(total);
        __syncthreads();
        if (linear_tid_ == 0) {
            // Thread t's exclusive prefix goes to the slot of thread t + 1 (thread 0's for the last thread), so each
            // thread reads a slot another thread writes first in the next scan: a reuse of this TempStorage without
            // a __syncthreads() in between is then a race between them, as with CUB's own algorithms.
            T running = *slot(0);
            T next_total = BLOCK_THREADS > 1 ? *slot(1) : running;
            for (int t = 1; t < BLOCK_THREADS; ++t) {
                const T total_t = next_total;
                if (t + 1 < BLOCK_THREADS) next_total = *slot(t + 1);  // read before it is overwritten
                *slot((t + 1) % BLOCK_THREADS) = running;
                running = op(running, total_t);
            }
            new (slot(BLOCK_THREADS)) T(running);
        }
        __syncthreads();
        aggregate = *slot(BLOCK_THREADS);
        bool has_prefix = linear_tid_ != 0;
        T prefix_value = has_prefix ? *slot((linear_tid_ + 1) % BLOCK_THREADS) : in[0];
        const T* block_prefix = initial;
        T callback_value;
        if (prefix) {
            if (linear_tid_ < 32) {
                const T answer = (*prefix)(aggregate);
                if (linear_tid_ == 0) new (slot(BLOCK_THREADS + 1)) T(answer);
            }
            __syncthreads();
            callback_value = *slot(BLOCK_THREADS + 1);
            block_prefix = &callback_value;
        }
        if (block_prefix) {
            prefix_value = has_prefix ? op(*block_prefix, prefix_value) : *block_prefix;
            has_prefix = true;
        }
        if (INCLUSIVE) {
            T acc = has_prefix ? op(prefix_value, in[0]) : in[0];
            output[0] = acc;
            for (int i = 1; i < N; ++i) output[i] = acc = op(acc, in[i]);
        } else {
            T acc = prefix_value;
            if (has_prefix) output[0] = acc;
            for (int i = 1; i < N; ++i) {
                acc = (i == 1 && !has_prefix) ? in[0] : op(acc, in[i - 1]);
                output[i] = acc;
            }
        }
    }

    TempStorage& storage_;
    int linear_tid_;
};

}  // namespace cub
