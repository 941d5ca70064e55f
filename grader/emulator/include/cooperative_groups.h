// CUDA's cooperative groups for emulator builds: the block, tiles of 1 to 32 threads (warp collectives with the
// tile's lanes as mask), tiles of 64 to 512 threads (runtime/tile_groups.cpp), coalesced groups and the grid. As in
// CUDA, cg::reduce and the scans need cooperative_groups/reduce.h and cooperative_groups/scan.h.
//
// Every collective goes through the emulator's checked primitives, so a tile whose member exited or waits elsewhere is
// reported (divergent barrier, deadlock, mask error) with the caller's file:line, never silently completed. Each call
// records that line through default arguments, like the warp intrinsics.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>

namespace cooperative_groups {

namespace details {

// A group's shfl takes any trivially copyable type, as CUDA's does (the __shfl_*_sync intrinsics move at most 8
// bytes): a larger value (a uint4, a struct of results) moves as consecutive 8-byte words, one shuffle each with the
// same lanes, so every mask check is made for each word.
template <class T, class Move>
T shfl_any(const T& var, Move move) {
    if constexpr (sizeof(T) <= 8) {
        return move(var);
    } else {
        static_assert(std::is_trivially_copyable_v<T>, "a group shuffle moves a trivially copyable type");
        constexpr std::size_t words = (sizeof(T) + 7) / 8;
        std::uint64_t in[words] = {}, out[words] = {};
        std::memcpy(in, &var, sizeof(T));
        for (std::size_t w = 0; w < words; ++w) out[w] = move(in[w]);
        T result;
        std::memcpy(&result, out, sizeof(T));
        return result;
    }
}

inline unsigned block_rank() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }
inline unsigned block_threads() { return blockDim.x * blockDim.y * blockDim.z; }
constexpr bool is_pow2(unsigned n) { return n != 0 && (n & (n - 1)) == 0; }

// The lanes [first % 32, first % 32 + count) of the caller's warp.
inline unsigned warp_tile_mask(unsigned first, unsigned count) {
    return count >= 32 ? 0xffffffffu : ((1u << count) - 1u) << (first % 32);
}

// Values cross a multi-warp tile as bits (at most 8 bytes, like a shuffle).
template <class T>
std::uint64_t to_bits(const T& v) {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8, "a tile exchanges values of at most 8 bytes");
    std::uint64_t b = 0;
    std::memcpy(&b, &v, sizeof(T));
    return b;
}
template <class T>
T from_bits(std::uint64_t b) {
    T v;
    std::memcpy(&v, &b, sizeof(T));
    return v;
}

// Where a tile sits: its first thread (linear id in the block), its size, and its place among its parent's tiles.
struct tile_place {
    unsigned first = 0, count = 1, meta_rank = 0, meta_size = 1;
};

// The tile of `n` threads containing the caller, carved out of a parent that starts at `parent_first`.
inline tile_place carve(unsigned parent_first, unsigned parent_count, unsigned n) {
    const unsigned rank = block_rank() - parent_first;
    return tile_place{parent_first + rank / n * n, n, rank / n, (parent_count + n - 1) / n};
}

std::uint64_t grid_sync(const char* file, int line);  // runtime/tile_groups.cpp
bool grid_is_cooperative();

}  // namespace details

// ---- the generic group: what tiled_partition(parent, n) returns, and what every group converts to ------------------
class thread_group {
 public:
    enum class kind : unsigned char { block, warp_tile, multi_warp_tile, coalesced };

    void sync(const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
        switch (kind_) {
            case kind::block: __syncthreads(file, line); break;
            case kind::warp_tile: __syncwarp(details::warp_tile_mask(place_.first, place_.count), file, line); break;
            case kind::coalesced: __syncwarp(mask_, file, line); break;
            case kind::multi_warp_tile:
                emu::detail::group_collective(emu::detail::GroupOp::sync, place_.first, place_.count, 0, 0,
                                              "thread_group::sync()", file, line);
                break;
        }
    }
    unsigned long long num_threads() const {
        return kind_ == kind::coalesced ? static_cast<unsigned>(__builtin_popcount(mask_)) : place_.count;
    }
    unsigned long long size() const { return num_threads(); }
    unsigned long long thread_rank() const {
        if (kind_ == kind::coalesced)
            return static_cast<unsigned>(__builtin_popcount(mask_ & ((1u << (details::block_rank() % 32)) - 1u)));
        return details::block_rank() - place_.first;
    }
    bool is_valid() const { return true; }

    // Internal: used by the partitions below.
    thread_group(kind k, details::tile_place p, unsigned mask = 0) : kind_(k), place_(p), mask_(mask) {}
    kind group_kind() const { return kind_; }
    const details::tile_place& place() const { return place_; }
    unsigned coalesced_mask() const { return mask_; }

 protected:
    kind kind_;
    details::tile_place place_;
    unsigned mask_;
};

// ---- the block -----------------------------------------------------------------------------------------------------
class thread_block : public thread_group {
 public:
    thread_block() : thread_group(kind::block, details::tile_place{0, details::block_threads(), 0, 1}) {}
    void sync(const char* file = __builtin_FILE(), int line = __builtin_LINE()) const { __syncthreads(file, line); }
    unsigned thread_rank() const { return details::block_rank(); }
    unsigned size() const { return details::block_threads(); }
    unsigned num_threads() const { return details::block_threads(); }
    dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
    dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
    dim3 group_dim() const { return blockDim; }
    dim3 dim_threads() const { return blockDim; }
};

// Scratch that CUDA's multi-warp tiles keep in shared memory on GPUs before sm_80 (CUDA 11 took two parameters,
// CUDA 12 one). The emulator's tiles need none, so it only has to exist and be accepted.
template <unsigned... Sizes>
struct block_tile_memory {
    alignas(16) unsigned char reserved[16];
};

inline thread_block this_thread_block() { return thread_block(); }

// Thread block clusters are not emulated (docs/emulator.md): cg::this_cluster() is refused where it is called.
namespace details {
template <class T>
struct emu_no_clusters : std::false_type {};
}  // namespace details
template <class T = void>
auto this_cluster() {
    static_assert(details::emu_no_clusters<T>::value,
                  "thread block clusters (cg::this_cluster(), cluster.sync(), map_shared_rank) are not emulated by the "
                  "CPU emulator: every block's shared memory lives at the same addresses here, so blocks of a cluster "
                  "cannot see each other's; run this kernel on a GPU");
    return 0;
}
template <unsigned... Sizes>
thread_block this_thread_block(block_tile_memory<Sizes...>&) {
    return thread_block();
}
inline void sync(const thread_group& g, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    g.sync(file, line);
}
inline void sync(const thread_block& g, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    g.sync(file, line);
}
template <class G>
unsigned long long thread_rank(const G& g) {
    return g.thread_rank();
}
template <class G>
unsigned long long group_size(const G& g) {
    return g.num_threads();
}

// ---- tiles of a fixed size -----------------------------------------------------------------------------------------
template <unsigned N, class Parent = void>
class thread_block_tile;

namespace details {

template <unsigned N>
class static_tile : public thread_group {
    static_assert(is_pow2(N) && N <= 512 && N != 0,
                  "a thread_block_tile is 1, 2, 4, …, 32, 64, 128, 256 or 512 threads");

 public:
    static constexpr bool multi_warp = N > 32;

    explicit static_tile(tile_place p) : thread_group(multi_warp ? kind::multi_warp_tile : kind::warp_tile, p) {}

    static constexpr unsigned num_threads() { return N; }
    static constexpr unsigned size() { return N; }
    unsigned thread_rank() const { return block_rank() - place_.first; }
    unsigned meta_group_rank() const { return place_.meta_rank; }
    unsigned meta_group_size() const { return place_.meta_size; }
    unsigned lane_mask() const { return warp_tile_mask(place_.first, N); }

    void sync(const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
        if constexpr (multi_warp)
            emu::detail::group_collective(emu::detail::GroupOp::sync, place_.first, N, 0, 0, sync_name(), file, line);
        else __syncwarp(lane_mask(), file, line);
    }

    // The value of tile member `src` (taken modulo the tile size, as CUDA's width does).
    template <class T>
    T shfl(T var, int src, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
        if constexpr (multi_warp) return exchange(var, static_cast<int>(static_cast<unsigned>(src) % N), file, line);
        else
            return details::shfl_any(
                var, [&](auto v) { return __shfl_sync(lane_mask(), v, src, static_cast<int>(N), file, line); });
    }
    template <class T>
    T shfl_down(T var, unsigned delta, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
        static_assert(!multi_warp, "thread_block_tile<N>::shfl_down exists for tiles of at most 32 threads");
        return details::shfl_any(
            var, [&](auto v) { return __shfl_down_sync(lane_mask(), v, delta, static_cast<int>(N), file, line); });
    }
    template <class T>
    T shfl_up(T var, unsigned delta, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
        static_assert(!multi_warp, "thread_block_tile<N>::shfl_up exists for tiles of at most 32 threads");
        return details::shfl_any(
            var, [&](auto v) { return __shfl_up_sync(lane_mask(), v, delta, static_cast<int>(N), file, line); });
    }
    template <class T>
    T shfl_xor(T var, unsigned lane_mask_bits, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
        static_assert(!multi_warp, "thread_block_tile<N>::shfl_xor exists for tiles of at most 32 threads");
        return details::shfl_any(var, [&](auto v) {
            return __shfl_xor_sync(lane_mask(), v, static_cast<int>(lane_mask_bits), static_cast<int>(N), file, line);
        });
    }
    // Bit r of the answer is member r's predicate.
    unsigned ballot(int pred, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
        static_assert(!multi_warp, "thread_block_tile<N>::ballot exists for tiles of at most 32 threads");
        return __ballot_sync(lane_mask(), pred, file, line) >> (place_.first % 32);
    }
    int any(int pred, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
        if constexpr (multi_warp) return tree_or(pred != 0, file, line);
        else return __any_sync(lane_mask(), pred, file, line);
    }
    int all(int pred, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
        if constexpr (multi_warp) return !tree_or(pred == 0, file, line);
        else return __all_sync(lane_mask(), pred, file, line);
    }
    template <class T>
    unsigned match_any(T value, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
        static_assert(!multi_warp, "thread_block_tile<N>::match_any exists for tiles of at most 32 threads");
        return __match_any_sync(lane_mask(), value, file, line) >> (place_.first % 32);
    }
    template <class T>
    unsigned match_all(T value, int& pred, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
        static_assert(!multi_warp, "thread_block_tile<N>::match_all exists for tiles of at most 32 threads");
        return __match_all_sync(lane_mask(), value, &pred, file, line) >> (place_.first % 32);
    }

    // Internal, for reduce and scan over multi-warp tiles: member `src`'s value, or the caller's own when `src` is
    // outside the tile.
    template <class T>
    T exchange(T var, int src, const char* file, int line) const {
        return from_bits<T>(emu::detail::group_collective(emu::detail::GroupOp::exchange, place_.first, N, to_bits(var),
                                                          src, exchange_name(), file, line));
    }

 private:
    static const char* sync_name() {
        static const char* const names[] = {"thread_block_tile<64>::sync()", "thread_block_tile<128>::sync()",
                                            "thread_block_tile<256>::sync()", "thread_block_tile<512>::sync()"};
        return names[N >= 512 ? 3 : N >= 256 ? 2 : N >= 128 ? 1 : 0];
    }
    static const char* exchange_name() {
        static const char* const names[] = {"thread_block_tile<64> collective", "thread_block_tile<128> collective",
                                            "thread_block_tile<256> collective", "thread_block_tile<512> collective"};
        return names[N >= 512 ? 3 : N >= 256 ? 2 : N >= 128 ? 1 : 0];
    }
    int tree_or(int bit, const char* file, int line) const {
        int v = bit;
        for (unsigned d = 1; d < N; d <<= 1) v |= exchange(v, static_cast<int>(thread_rank() ^ d), file, line);
        return v;
    }
};

}  // namespace details

template <unsigned N, class Parent>
class thread_block_tile : public details::static_tile<N> {
 public:
    explicit thread_block_tile(details::tile_place p) : details::static_tile<N>(p) {}
    // A tile converts to the same tile with another (or no) parent type, as in CUDA.
    template <class Q>
    thread_block_tile(const thread_block_tile<N, Q>& other) : details::static_tile<N>(other.place()) {}
};

template <unsigned N>
thread_block_tile<N, thread_block> tiled_partition(const thread_block& parent) {
    return thread_block_tile<N, thread_block>(details::carve(0, parent.num_threads(), N));
}
template <unsigned N, unsigned M, class Q>
thread_block_tile<N, thread_block_tile<M, Q>> tiled_partition(const thread_block_tile<M, Q>& parent) {
    static_assert(N <= M, "a tile can only be split into smaller tiles");
    return thread_block_tile<N, thread_block_tile<M, Q>>(details::carve(parent.place().first, M, N));
}

// ---- tiles of a size known at run time ------------------------------------------------------------------------------
inline thread_group tiled_partition(const thread_group& parent, unsigned n) {
    // CUDA: n is a power of two, at most the parent's size (tiles wider than a warp: of a block or wider tile).
    if (!details::is_pow2(n) || n > parent.num_threads() || parent.group_kind() == thread_group::kind::coalesced) {
        std::fprintf(stderr,
                     "emu: tiled_partition(group, %u): the size must be a power of two no larger than the parent "
                     "(and the parent no coalesced group)\n",
                     n);
        __trap();
    }
    const details::tile_place p = details::carve(parent.place().first, static_cast<unsigned>(parent.num_threads()), n);
    return thread_group(n > 32 ? thread_group::kind::multi_warp_tile : thread_group::kind::warp_tile, p);
}

// ---- coalesced groups -----------------------------------------------------------------------------------------------
class coalesced_group : public thread_group {
 public:
    explicit coalesced_group(unsigned mask)
        : thread_group(kind::coalesced, details::tile_place{details::block_rank() / 32 * 32, 32, 0, 1}, mask) {}
    unsigned num_threads() const { return static_cast<unsigned>(__builtin_popcount(mask_)); }
    unsigned size() const { return num_threads(); }
    unsigned thread_rank() const {
        return static_cast<unsigned>(__builtin_popcount(mask_ & ((1u << (details::block_rank() % 32)) - 1u)));
    }
    unsigned meta_group_rank() const { return 0; }
    unsigned meta_group_size() const { return 1; }
    void sync(const char* file = __builtin_FILE(), int line = __builtin_LINE()) const { __syncwarp(mask_, file, line); }

    template <class T>
    T shfl(T var, int src_rank, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
        const int lane = static_cast<int>(lane_of(static_cast<unsigned>(src_rank) % num_threads()));
        return details::shfl_any(var, [&](auto v) { return __shfl_sync(mask_, v, lane, 32, file, line); });
    }
    template <class T>
    T shfl_down(T var, unsigned delta, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
        const unsigned r = thread_rank() + delta;
        const int lane = static_cast<int>(r < num_threads() ? lane_of(r) : own_lane());
        return details::shfl_any(var, [&](auto v) { return __shfl_sync(mask_, v, lane, 32, file, line); });
    }
    template <class T>
    T shfl_up(T var, unsigned delta, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
        const unsigned r = thread_rank();
        const int lane = static_cast<int>(r >= delta ? lane_of(r - delta) : own_lane());
        return details::shfl_any(var, [&](auto v) { return __shfl_sync(mask_, v, lane, 32, file, line); });
    }
    // Bit r of the answer is the predicate of the member of rank r.
    unsigned ballot(int pred, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
        const unsigned lanes = __ballot_sync(mask_, pred, file, line);
        unsigned out = 0, r = 0;
        for (unsigned l = 0; l < 32; ++l)
            if (mask_ >> l & 1u) out |= (lanes >> l & 1u) << r++;
        return out;
    }
    int any(int pred, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
        return __any_sync(mask_, pred, file, line);
    }
    int all(int pred, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
        return __all_sync(mask_, pred, file, line);
    }

    // Internal: the lane of the member of rank `rank`.
    unsigned lane_of(unsigned rank) const {
        unsigned m = mask_;
        for (unsigned i = 0; i < rank; ++i) m &= m - 1;
        return static_cast<unsigned>(__builtin_ctz(m));
    }

 private:
    unsigned own_lane() const { return details::block_rank() % 32; }
};

// The lanes of the caller's warp that reach this same call together (what __activemask() answers).
inline coalesced_group coalesced_threads(const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    return coalesced_group(__activemask(file, line));
}

// Splits a warp-sized group by a label (the lanes holding equal labels) or by a predicate (two groups).
inline coalesced_group labeled_partition(const coalesced_group& g, int label, const char* file = __builtin_FILE(),
                                         int line = __builtin_LINE()) {
    return coalesced_group(__match_any_sync(g.coalesced_mask(), label, file, line));
}
template <unsigned N, class P>
coalesced_group labeled_partition(const thread_block_tile<N, P>& g, int label, const char* file = __builtin_FILE(),
                                  int line = __builtin_LINE()) {
    static_assert(N <= 32, "labeled_partition takes a tile of at most 32 threads");
    return coalesced_group(__match_any_sync(g.lane_mask(), label, file, line));
}
namespace details {
inline coalesced_group split(unsigned parent, bool pred, const char* file, int line) {
    const unsigned yes = __ballot_sync(parent, pred, file, line);
    return coalesced_group(pred ? yes : parent & ~yes);
}
}  // namespace details
inline coalesced_group binary_partition(const coalesced_group& g, bool pred, const char* file = __builtin_FILE(),
                                        int line = __builtin_LINE()) {
    return details::split(g.coalesced_mask(), pred, file, line);
}
template <unsigned N, class P>
coalesced_group binary_partition(const thread_block_tile<N, P>& g, bool pred, const char* file = __builtin_FILE(),
                                 int line = __builtin_LINE()) {
    static_assert(N <= 32, "binary_partition takes a tile of at most 32 threads");
    return details::split(g.lane_mask(), pred, file, line);
}

// ---- the grid (cudaLaunchCooperativeKernel) ---------------------------------------------------------------------
class grid_group {
 public:
    void sync(const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
        details::grid_sync(file, line);
    }
    bool is_valid() const { return details::grid_is_cooperative(); }
    unsigned long long num_threads() const { return 1ull * num_blocks() * details::block_threads(); }
    unsigned long long size() const { return num_threads(); }
    unsigned long long thread_rank() const {
        return 1ull * block_rank() * details::block_threads() + details::block_rank();
    }
    unsigned num_blocks() const { return gridDim.x * gridDim.y * gridDim.z; }
    unsigned block_rank() const { return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z); }
    dim3 group_dim() const { return gridDim; }
    dim3 dim_blocks() const { return gridDim; }
    dim3 block_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
};
inline grid_group this_grid() { return grid_group(); }
// The free function, as for the other groups (cuda-samples' simpleAWBarrier calls cg::sync(grid)).
inline void sync(const grid_group& g, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    g.sync(file, line);
}

}  // namespace cooperative_groups
