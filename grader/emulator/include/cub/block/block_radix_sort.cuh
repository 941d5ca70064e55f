// cub::BlockRadixSort for emulator builds: a block sorts its threads' keys (and values), each thread holding
// ITEMS_PER_THREAD in a blocked arrangement, by the key bits [begin_bit, end_bit), ascending or descending, stably, in
// the caller's __shared__ TempStorage. Each thread writes its items into the TempStorage, __syncthreads, thread 0 sorts
// them (the order of CUB's radix passes: stable, on CUB's key bit transform), __syncthreads, each thread reads its
// items back (blocked, or striped for the ...BlockedToStriped forms). Every thread of the block must call it (it
// holds barriers), and, as in CUB, a reuse of one TempStorage needs a __syncthreads() in between: without it the next
// use is reported as a shared-memory race. RADIX_BITS, MEMOIZE_OUTER_SCAN, INNER_SCAN_ALGORITHM and SMEM_CONFIG are
// accepted and change nothing.
#pragma once

#include <algorithm>
#include <cub/device/device_algorithms.cuh>
#include <cub/util_ptx.cuh>
#include <cub/util_type.cuh>
#include <emu/shared.hpp>
#include <new>
#include <vector>

namespace cub {

template <class KeyT, int BLOCK_DIM_X, int ITEMS_PER_THREAD, class ValueT = NullType, int RADIX_BITS = 4,
          bool MEMOIZE_OUTER_SCAN = true, int INNER_SCAN_ALGORITHM = 0, int SMEM_CONFIG = 0, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockRadixSort {
    static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
    static constexpr int TILE = BLOCK_THREADS * ITEMS_PER_THREAD;
    static constexpr bool KEYS_ONLY = std::is_same_v<ValueT, NullType>;
    static_assert(BLOCK_THREADS >= 1 && BLOCK_THREADS <= 1024, "cub::BlockRadixSort: 1 to 1024 threads");

 public:
    struct TempStorage {
        alignas(KeyT) unsigned char keys[sizeof(KeyT) * TILE];
        alignas(ValueT) unsigned char values[KEYS_ONLY ? 1 : sizeof(ValueT) * TILE];
    };

    explicit BlockRadixSort(TempStorage& temp_storage)
        : storage_(temp_storage), linear_tid_(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z)) {}
    BlockRadixSort() : BlockRadixSort(private_storage()) {}

    void Sort(KeyT (&keys)[ITEMS_PER_THREAD], int begin_bit = 0, int end_bit = sizeof(KeyT) * 8) {
        run(keys, nullptr, begin_bit, end_bit, false, false);
    }
    void Sort(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD], int begin_bit = 0,
              int end_bit = sizeof(KeyT) * 8) {
        run(keys, &values, begin_bit, end_bit, false, false);
    }
    void SortDescending(KeyT (&keys)[ITEMS_PER_THREAD], int begin_bit = 0, int end_bit = sizeof(KeyT) * 8) {
        run(keys, nullptr, begin_bit, end_bit, true, false);
    }
    void SortDescending(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD], int begin_bit = 0,
                        int end_bit = sizeof(KeyT) * 8) {
        run(keys, &values, begin_bit, end_bit, true, false);
    }
    void SortBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD], int begin_bit = 0, int end_bit = sizeof(KeyT) * 8) {
        run(keys, nullptr, begin_bit, end_bit, false, true);
    }
    void SortBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD], int begin_bit = 0,
                              int end_bit = sizeof(KeyT) * 8) {
        run(keys, &values, begin_bit, end_bit, false, true);
    }
    void SortDescendingBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD], int begin_bit = 0,
                                        int end_bit = sizeof(KeyT) * 8) {
        run(keys, nullptr, begin_bit, end_bit, true, true);
    }
    void SortDescendingBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD],
                                        int begin_bit = 0, int end_bit = sizeof(KeyT) * 8) {
        run(keys, &values, begin_bit, end_bit, true, true);
    }

 private:
    static TempStorage& private_storage() {
        static emu::SharedSlot slot;
        return emu::shared_var<TempStorage>(&slot, "cub::BlockRadixSort private TempStorage");
    }
    KeyT* key(int i) { return reinterpret_cast<KeyT*>(storage_.keys) + i; }
    ValueT* value(int i) { return reinterpret_cast<ValueT*>(storage_.values) + i; }

    void run(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (*values)[ITEMS_PER_THREAD], int begin_bit, int end_bit,
             bool descending, bool striped_out) {
        // A race reported on these lines means this TempStorage's previous use was not followed by a __syncthreads().
        for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
            new (key(linear_tid_ * ITEMS_PER_THREAD + i)) KeyT(keys[i]);
            if (values) new (value(linear_tid_ * ITEMS_PER_THREAD + i)) ValueT((*values)[i]);
        }
        __syncthreads();
        if (linear_tid_ == 0) {
            const int width = end_bit - begin_bit;
            auto digit = [&](int i) {
                const auto bits = emu_device::radix_bits(*key(i)) >> begin_bit;
                using U = decltype(bits);
                return width >= int(sizeof(U) * 8) ? bits : U(bits & ((U(1) << width) - 1));
            };
            // The permutation and the copies live on the heap: a tile of 1024 threads' items would not fit a fiber's
            // stack (a GPU holds them in the block's registers).
            std::vector<int> order(TILE);
            for (int i = 0; i < TILE; ++i) order[i] = i;
            std::stable_sort(order.begin(), order.end(),
                             [&](int a, int b) { return descending ? digit(b) < digit(a) : digit(a) < digit(b); });
            std::vector<KeyT> sorted_keys(TILE);
            for (int i = 0; i < TILE; ++i) sorted_keys[i] = *key(order[i]);
            for (int i = 0; i < TILE; ++i) *key(i) = sorted_keys[i];
            if (values) {
                std::vector<ValueT> sorted_values(TILE);
                for (int i = 0; i < TILE; ++i) sorted_values[i] = *value(order[i]);
                for (int i = 0; i < TILE; ++i) *value(i) = sorted_values[i];
            }
        }
        __syncthreads();
        for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
            const int at = striped_out ? i * BLOCK_THREADS + linear_tid_ : linear_tid_ * ITEMS_PER_THREAD + i;
            keys[i] = *key(at);
            if (values) (*values)[i] = *value(at);
        }
    }

    TempStorage& storage_;
    int linear_tid_;
};

}  // namespace cub
