// cub::BlockLoad and cub::BlockStore for emulator builds, with the direct load and store functions they are made of
// (LoadDirectBlocked, LoadDirectStriped, LoadDirectWarpStriped, and the Store forms). Every algorithm gives CUB's
// arrangement of the tile: BLOCK_LOAD_STRIPED / BLOCK_STORE_STRIPED a striped one (item i of thread t is element
// i * BLOCK_THREADS + t), every other algorithm (DIRECT, VECTORIZE, TRANSPOSE, WARP_TRANSPOSE, TIMESLICED) a blocked
// one (element t * ITEMS_PER_THREAD + i). Each thread reads and writes its own elements of global memory directly,
// through the memory checker (a tile past the end of a buffer is reported at CUB's line in this header, with the
// thread). CUB's transposing algorithms stage the tile through the TempStorage; here the TempStorage is not used, so
// a missing __syncthreads() between a BlockLoad and another use of a union it shares is not reported.
// Guarded forms (valid_items) touch only elements below valid_items; with an out-of-bounds default the other items
// take it, without one they keep what they held, as in CUB.
#pragma once

#include <cub/util_ptx.cuh>

namespace cub {

enum BlockLoadAlgorithm {
    BLOCK_LOAD_DIRECT,
    BLOCK_LOAD_STRIPED,
    BLOCK_LOAD_VECTORIZE,
    BLOCK_LOAD_TRANSPOSE,
    BLOCK_LOAD_WARP_TRANSPOSE,
    BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED,
};
enum BlockStoreAlgorithm {
    BLOCK_STORE_DIRECT,
    BLOCK_STORE_STRIPED,
    BLOCK_STORE_VECTORIZE,
    BLOCK_STORE_TRANSPOSE,
    BLOCK_STORE_WARP_TRANSPOSE,
    BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED,
};

// ---- direct loads and stores --------------------------------------------------------------------------------------
template <class T, int N, class InputIt>
void LoadDirectBlocked(int linear_tid, InputIt block_itr, T (&items)[N]) {
    for (int i = 0; i < N; ++i) items[i] = block_itr[linear_tid * N + i];
}
template <class T, int N, class InputIt>
void LoadDirectBlocked(int linear_tid, InputIt block_itr, T (&items)[N], int valid_items) {
    for (int i = 0; i < N; ++i)
        if (linear_tid * N + i < valid_items) items[i] = block_itr[linear_tid * N + i];
}
template <class T, class Default, int N, class InputIt>
void LoadDirectBlocked(int linear_tid, InputIt block_itr, T (&items)[N], int valid_items, Default oob_default) {
    for (int i = 0; i < N; ++i) items[i] = T(oob_default);
    LoadDirectBlocked(linear_tid, block_itr, items, valid_items);
}
template <int BLOCK_THREADS, class T, int N, class InputIt>
void LoadDirectStriped(int linear_tid, InputIt block_itr, T (&items)[N]) {
    for (int i = 0; i < N; ++i) items[i] = block_itr[i * BLOCK_THREADS + linear_tid];
}
template <int BLOCK_THREADS, class T, int N, class InputIt>
void LoadDirectStriped(int linear_tid, InputIt block_itr, T (&items)[N], int valid_items) {
    for (int i = 0; i < N; ++i)
        if (i * BLOCK_THREADS + linear_tid < valid_items) items[i] = block_itr[i * BLOCK_THREADS + linear_tid];
}
template <int BLOCK_THREADS, class T, class Default, int N, class InputIt>
void LoadDirectStriped(int linear_tid, InputIt block_itr, T (&items)[N], int valid_items, Default oob_default) {
    for (int i = 0; i < N; ++i) items[i] = T(oob_default);
    LoadDirectStriped<BLOCK_THREADS>(linear_tid, block_itr, items, valid_items);
}
// Warp-striped: each warp's 32 * N elements, lane l holding element warp_base + i * 32 + l.
template <class T, int N, class InputIt>
void LoadDirectWarpStriped(int linear_tid, InputIt block_itr, T (&items)[N]) {
    const int lane = linear_tid % 32, base = (linear_tid / 32) * 32 * N;
    for (int i = 0; i < N; ++i) items[i] = block_itr[base + i * 32 + lane];
}
template <class T, int N, class InputIt>
void LoadDirectWarpStriped(int linear_tid, InputIt block_itr, T (&items)[N], int valid_items) {
    const int lane = linear_tid % 32, base = (linear_tid / 32) * 32 * N;
    for (int i = 0; i < N; ++i)
        if (base + i * 32 + lane < valid_items) items[i] = block_itr[base + i * 32 + lane];
}
template <class T, int N, class OutputIt>
void StoreDirectBlocked(int linear_tid, OutputIt block_itr, T (&items)[N]) {
    for (int i = 0; i < N; ++i) block_itr[linear_tid * N + i] = items[i];
}
template <class T, int N, class OutputIt>
void StoreDirectBlocked(int linear_tid, OutputIt block_itr, T (&items)[N], int valid_items) {
    for (int i = 0; i < N; ++i)
        if (linear_tid * N + i < valid_items) block_itr[linear_tid * N + i] = items[i];
}
template <int BLOCK_THREADS, class T, int N, class OutputIt>
void StoreDirectStriped(int linear_tid, OutputIt block_itr, T (&items)[N]) {
    for (int i = 0; i < N; ++i) block_itr[i * BLOCK_THREADS + linear_tid] = items[i];
}
template <int BLOCK_THREADS, class T, int N, class OutputIt>
void StoreDirectStriped(int linear_tid, OutputIt block_itr, T (&items)[N], int valid_items) {
    for (int i = 0; i < N; ++i)
        if (i * BLOCK_THREADS + linear_tid < valid_items) block_itr[i * BLOCK_THREADS + linear_tid] = items[i];
}
template <class T, int N, class OutputIt>
void StoreDirectWarpStriped(int linear_tid, OutputIt block_itr, T (&items)[N]) {
    const int lane = linear_tid % 32, base = (linear_tid / 32) * 32 * N;
    for (int i = 0; i < N; ++i) block_itr[base + i * 32 + lane] = items[i];
}

// ---- BlockLoad / BlockStore ---------------------------------------------------------------------------------------
template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockLoadAlgorithm ALGORITHM = BLOCK_LOAD_DIRECT,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockLoad {
    static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
    static constexpr bool STRIPED = ALGORITHM == BLOCK_LOAD_STRIPED;

 public:
    struct TempStorage {
        unsigned char unused;  // the tile is not staged here (see above)
    };
    BlockLoad() : linear_tid_(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z)) {}
    explicit BlockLoad(TempStorage&) : BlockLoad() {}

    template <class InputIt>
    void Load(InputIt block_itr, T (&items)[ITEMS_PER_THREAD]) {
        if (STRIPED) LoadDirectStriped<BLOCK_THREADS>(linear_tid_, block_itr, items);
        else LoadDirectBlocked(linear_tid_, block_itr, items);
    }
    template <class InputIt>
    void Load(InputIt block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items) {
        if (STRIPED) LoadDirectStriped<BLOCK_THREADS>(linear_tid_, block_itr, items, valid_items);
        else LoadDirectBlocked(linear_tid_, block_itr, items, valid_items);
    }
    template <class InputIt, class Default>
    void Load(InputIt block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items, Default oob_default) {
        if (STRIPED) LoadDirectStriped<BLOCK_THREADS>(linear_tid_, block_itr, items, valid_items, oob_default);
        else LoadDirectBlocked(linear_tid_, block_itr, items, valid_items, oob_default);
    }

 private:
    int linear_tid_;
};

template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockStoreAlgorithm ALGORITHM = BLOCK_STORE_DIRECT,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockStore {
    static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
    static constexpr bool STRIPED = ALGORITHM == BLOCK_STORE_STRIPED;

 public:
    struct TempStorage {
        unsigned char unused;
    };
    BlockStore() : linear_tid_(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z)) {}
    explicit BlockStore(TempStorage&) : BlockStore() {}

    template <class OutputIt>
    void Store(OutputIt block_itr, T (&items)[ITEMS_PER_THREAD]) {
        if (STRIPED) StoreDirectStriped<BLOCK_THREADS>(linear_tid_, block_itr, items);
        else StoreDirectBlocked(linear_tid_, block_itr, items);
    }
    template <class OutputIt>
    void Store(OutputIt block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items) {
        if (STRIPED) StoreDirectStriped<BLOCK_THREADS>(linear_tid_, block_itr, items, valid_items);
        else StoreDirectBlocked(linear_tid_, block_itr, items, valid_items);
    }

 private:
    int linear_tid_;
};

}  // namespace cub
