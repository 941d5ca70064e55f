// cub::BlockExchange for emulator builds: rearranges a block's items between the blocked arrangement (thread t holds
// items t*N .. t*N+N-1), the striped one (thread t holds items t, t+T, …), the warp-striped one (striped within each
// warp's 32*N items), and ranks given per item (ScatterToBlocked, ScatterToStriped), through the caller's __shared__
// TempStorage: every thread writes its items at their tile positions, __syncthreads, then reads the items of its new
// arrangement. Every thread of the block must call it (it holds a barrier), and, as in CUB, a reuse of one TempStorage
// needs a __syncthreads() in between: without it the next use is reported as a shared-memory race. WARP_TIME_SLICING
// is accepted and changes nothing.
#pragma once

#include <cub/util_ptx.cuh>
#include <emu/shared.hpp>
#include <new>

namespace cub {

template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, bool WARP_TIME_SLICING = false, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockExchange {
    static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
    static constexpr int TILE = BLOCK_THREADS * ITEMS_PER_THREAD;
    static constexpr int WARP_ITEMS = 32 * ITEMS_PER_THREAD;

 public:
    struct TempStorage {
        alignas(T) unsigned char items[sizeof(T) * TILE];
    };

    explicit BlockExchange(TempStorage& temp_storage)
        : storage_(temp_storage), tid_(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z)) {}
    BlockExchange() : BlockExchange(private_storage()) {}

    template <class O>
    void StripedToBlocked(const T (&in)[ITEMS_PER_THREAD], O (&out)[ITEMS_PER_THREAD]) {
        move(
            in, out, [&](int i) { return i * BLOCK_THREADS + tid_; },
            [&](int i) { return tid_ * ITEMS_PER_THREAD + i; });
    }
    template <class O>
    void BlockedToStriped(const T (&in)[ITEMS_PER_THREAD], O (&out)[ITEMS_PER_THREAD]) {
        move(
            in, out, [&](int i) { return tid_ * ITEMS_PER_THREAD + i; },
            [&](int i) { return i * BLOCK_THREADS + tid_; });
    }
    template <class O>
    void WarpStripedToBlocked(const T (&in)[ITEMS_PER_THREAD], O (&out)[ITEMS_PER_THREAD]) {
        move(
            in, out, [&](int i) { return warp_striped(i); }, [&](int i) { return tid_ * ITEMS_PER_THREAD + i; });
    }
    template <class O>
    void BlockedToWarpStriped(const T (&in)[ITEMS_PER_THREAD], O (&out)[ITEMS_PER_THREAD]) {
        move(
            in, out, [&](int i) { return tid_ * ITEMS_PER_THREAD + i; }, [&](int i) { return warp_striped(i); });
    }
    template <class O, class R>
    void ScatterToBlocked(const T (&in)[ITEMS_PER_THREAD], O (&out)[ITEMS_PER_THREAD], R (&ranks)[ITEMS_PER_THREAD]) {
        move(
            in, out, [&](int i) { return static_cast<int>(ranks[i]); },
            [&](int i) { return tid_ * ITEMS_PER_THREAD + i; });
    }
    template <class O, class R>
    void ScatterToStriped(const T (&in)[ITEMS_PER_THREAD], O (&out)[ITEMS_PER_THREAD], R (&ranks)[ITEMS_PER_THREAD]) {
        move(
            in, out, [&](int i) { return static_cast<int>(ranks[i]); },
            [&](int i) { return i * BLOCK_THREADS + tid_; });
    }
    // The in-place forms CUB also has.
    void StripedToBlocked(T (&items)[ITEMS_PER_THREAD]) { StripedToBlocked(items, items); }
    void BlockedToStriped(T (&items)[ITEMS_PER_THREAD]) { BlockedToStriped(items, items); }
    void WarpStripedToBlocked(T (&items)[ITEMS_PER_THREAD]) { WarpStripedToBlocked(items, items); }
    void BlockedToWarpStriped(T (&items)[ITEMS_PER_THREAD]) { BlockedToWarpStriped(items, items); }

 private:
    static TempStorage& private_storage() {
        static emu::SharedSlot slot;
        return emu::shared_var<TempStorage>(&slot, "cub::BlockExchange private TempStorage");
    }
    T* item(int i) { return reinterpret_cast<T*>(storage_.items) + i; }
    int warp_striped(int i) const {
        const int warp = tid_ / 32, lane = tid_ % 32;
        return warp * WARP_ITEMS + i * 32 + lane;
    }

    // Each item to its tile position `from(i)`, then each output from tile position `to(i)`.
    template <class O, class From, class To>
    void move(const T (&in)[ITEMS_PER_THREAD], O (&out)[ITEMS_PER_THREAD], From from, To to) {
        T copy[ITEMS_PER_THREAD];  // in and out may be one array
        for (int i = 0; i < ITEMS_PER_THREAD; ++i) copy[i] = in[i];
        // A race reported on this line means this TempStorage's previous use was not followed by a __syncthreads().
        for (int i = 0; i < ITEMS_PER_THREAD; ++i) new (item(from(i))) T(copy[i]);
        __syncthreads();
        for (int i = 0; i < ITEMS_PER_THREAD; ++i) out[i] = *item(to(i));
    }

    TempStorage& storage_;
    int tid_;
};

}  // namespace cub
