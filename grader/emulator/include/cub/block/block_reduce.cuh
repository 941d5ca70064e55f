// cub::BlockReduce for emulator builds: CUB's BLOCK_REDUCE_WARP_REDUCTIONS algorithm written out on the emulator's
// own built-ins (shuffles, __syncthreads) and the caller's __shared__ TempStorage, so the emulator checks it like
// any user code: a second use of one TempStorage without a __syncthreads in between is a shared-memory race here,
// as it is on a GPU (CUB's documentation requires that barrier).
//
// CUB's rules, kept here:
//   * every thread of the block calls Sum/Reduce (it contains a __syncthreads);
//   * the aggregate is valid in thread 0 only (linear id x + y·X + z·X·Y); other threads get partial values —
//     broadcast it yourself through shared memory, followed by a __syncthreads, if all threads need it;
//   * with num_valid, only threads with linear id < num_valid contribute;
//   * the combination order is CUB's: each warp reduces with shuffle-down offsets 1, 2, 4, 8, 16, lane 0 of every
//     warp stores its aggregate, __syncthreads, and thread 0 folds warps 1, 2, … into warp 0's aggregate in order.
//     Float sums therefore match CUB's WARP_REDUCTIONS on a GPU bit for bit.
// Differences from CUB: BLOCK_REDUCE_RAKING and BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY are accepted but run the same
// warp-reductions algorithm (same result in thread 0; float sums may differ from a GPU's raking order in the last
// bits). Blocks of fewer than 32 threads whose size is not a power of two reduce with shuffles over the next power of
// two, where CUB would use shared memory.
#pragma once

#include <cub/thread/thread_operators.cuh>
#include <cub/util_ptx.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <emu/shared.hpp>
#include <new>

namespace cub {

enum BlockReduceAlgorithm {
    BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY,
    BLOCK_REDUCE_RAKING,
    BLOCK_REDUCE_WARP_REDUCTIONS,
};

template <class T, int BLOCK_DIM_X, BlockReduceAlgorithm ALGORITHM = BLOCK_REDUCE_WARP_REDUCTIONS, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockReduce {
    static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
    static constexpr int WARP_THREADS = 32;
    static constexpr int WARPS = (BLOCK_THREADS + WARP_THREADS - 1) / WARP_THREADS;
    static constexpr int LOGICAL_WARP_SIZE = BLOCK_THREADS < WARP_THREADS ? BLOCK_THREADS : WARP_THREADS;
    static constexpr bool EVEN_WARP_MULTIPLE = BLOCK_THREADS % LOGICAL_WARP_SIZE == 0;
    static constexpr int pow2_at_least(int n) { return n <= 1 ? 1 : 2 * pow2_at_least((n + 1) / 2); }
    using WarpReduceT = WarpReduce<T, pow2_at_least(LOGICAL_WARP_SIZE)>;
    static_assert(BLOCK_THREADS >= 1 && BLOCK_THREADS <= 1024, "cub::BlockReduce: 1 to 1024 threads");

 public:
    // One aggregate per warp. Raw bytes, like CUB's Uninitialized<>, so T needs no default constructor and the
    // storage can share a union with other temporaries.
    struct TempStorage {
        alignas(T) unsigned char warp_aggregates[sizeof(T) * WARPS];
    };

    // Uses the caller's shared TempStorage.
    explicit BlockReduce(TempStorage& temp_storage)
        : storage_(temp_storage), linear_tid_(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z)) {}
    // Uses a shared TempStorage of its own (one per instantiation, like CUB's private static __shared__ storage).
    BlockReduce() : BlockReduce(private_storage()) {}

    T Sum(T input, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
        return reduce<true>(input, BLOCK_THREADS, cub::Sum(), file, line);
    }
    T Sum(T input, int num_valid, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
        return num_valid >= BLOCK_THREADS ? reduce<true>(input, num_valid, cub::Sum(), file, line)
                                          : reduce<false>(input, num_valid, cub::Sum(), file, line);
    }
    template <int ITEMS_PER_THREAD>
    T Sum(T (&inputs)[ITEMS_PER_THREAD], const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
        return reduce<true>(thread_reduce(inputs, cub::Sum()), BLOCK_THREADS, cub::Sum(), file, line);
    }

    template <class ReductionOp>
    T Reduce(T input, ReductionOp op, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
        return reduce<true>(input, BLOCK_THREADS, op, file, line);
    }
    template <class ReductionOp>
    T Reduce(T input, ReductionOp op, int num_valid, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
        return num_valid >= BLOCK_THREADS ? reduce<true>(input, num_valid, op, file, line)
                                          : reduce<false>(input, num_valid, op, file, line);
    }
    template <int ITEMS_PER_THREAD, class ReductionOp>
    T Reduce(T (&inputs)[ITEMS_PER_THREAD], ReductionOp op, const char* file = __builtin_FILE(),
             int line = __builtin_LINE()) {
        return reduce<true>(thread_reduce(inputs, op), BLOCK_THREADS, op, file, line);
    }

 private:
    static TempStorage& private_storage() {
        static emu::SharedSlot slot;
        return emu::shared_var<TempStorage>(&slot, "cub::BlockReduce private TempStorage");
    }

    template <int N, class ReductionOp>
    static T thread_reduce(T (&inputs)[N], ReductionOp op) {
        T acc = inputs[0];
        for (int i = 1; i < N; ++i) acc = op(acc, inputs[i]);
        return acc;
    }

    T* aggregates() { return reinterpret_cast<T*>(storage_.warp_aggregates); }

    template <bool FULL_TILE, class ReductionOp>
    T reduce(T input, int num_valid, ReductionOp op, const char* file, int line) {
        const int warp_id = WARPS == 1 ? 0 : linear_tid_ / WARP_THREADS;
        const int lane_id = linear_tid_ % WARP_THREADS;
        const int warp_offset = warp_id * LOGICAL_WARP_SIZE;
        const int warp_num_valid = ((FULL_TILE && EVEN_WARP_MULTIPLE) || warp_offset + LOGICAL_WARP_SIZE <= num_valid)
                                       ? LOGICAL_WARP_SIZE
                                       : (FULL_TILE ? BLOCK_THREADS : num_valid) - warp_offset;
        T warp_aggregate = WarpReduceT::reduce_shfl(input, op, warp_num_valid, file, line);

        // A race reported on the next line or on the read below means one TempStorage was used twice with no
        // __syncthreads() between the uses: this write of the next reduction can overwrite a warp aggregate that
        // thread 0 is still reading for the previous one.
        if (lane_id == 0) new (aggregates() + warp_id) T(warp_aggregate);
        __syncthreads(file, line);
        if (linear_tid_ == 0) {
            for (int w = 1; w < WARPS; ++w) {
                if (!(FULL_TILE || w * LOGICAL_WARP_SIZE < num_valid)) continue;
                const T other = aggregates()[w];  // written by lane 0 of warp w before the barrier above
                warp_aggregate = op(warp_aggregate, other);
            }
        }
        return warp_aggregate;
    }

    TempStorage& storage_;
    int linear_tid_;
};

}  // namespace cub
