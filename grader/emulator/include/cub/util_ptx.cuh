// Thread and lane ids as CUB computes them, and the warp-shuffle helper the cub shims build on.
#pragma once

#include <cstring>
#include <type_traits>

#include <cuda_runtime.h>

namespace cub {

// Row-major linear id of the calling thread within its block (x fastest), as CUB's RowMajorTid.
inline int RowMajorTid(int block_dim_x, int block_dim_y, int block_dim_z) {
    return ((block_dim_z == 1) ? 0 : (int(threadIdx.z) * block_dim_x * block_dim_y)) +
           ((block_dim_y == 1) ? 0 : (int(threadIdx.y) * block_dim_x)) + int(threadIdx.x);
}
// Hardware lane and warp of the calling thread: warps are consecutive runs of 32 linear thread ids.
inline unsigned int LaneId() { return unsigned(RowMajorTid(int(blockDim.x), int(blockDim.y), int(blockDim.z))) % 32u; }
inline unsigned int WarpId() { return unsigned(RowMajorTid(int(blockDim.x), int(blockDim.y), int(blockDim.z))) / 32u; }

namespace detail {

// Lanes of the calling thread's hardware warp that exist: a block whose size is not a multiple of 32 has a last
// warp with fewer lanes, and a shuffle mask must not name lanes that are not there.
inline unsigned int existing_lanes_mask() {
    const unsigned block_threads = blockDim.x * blockDim.y * blockDim.z;
    const unsigned base = WarpId() * 32u;
    const unsigned n = block_threads - base >= 32u ? 32u : block_threads - base;
    return n == 32u ? 0xffffffffu : ((1u << n) - 1u);
}

// The shuffles below copy the caller's value into word arrays of their own and back. Compiled with the kernel, at
// -O0 and instrumented, each copy of those locals would be a hook call that can only find the thread's own stack (six
// a lane per shuffle of a float): they are not instrumented, and the one access that is not to their own locals, the
// read of the caller's value, is reported as the instrumented memcpy reported it (a read of sizeof(T) bytes at this
// code address, which the checker attributes to the caller).
extern "C" void __tsan_read_range(void* p, unsigned long n);

// shfl.sync.down of any trivially copyable T, moved in 4-byte words as CUB's ShuffleDown does for wide types, with
// CUB's `c` operand: segments of `logical_warp` lanes, and `last_lane` (logical) as the highest lane read from. A
// lane whose source lies beyond last_lane gets its own value back and reads nothing, which is what keeps CUB's
// partial reductions from touching lanes outside the mask. `file`/`line` name the user's call.
template <class T>
__attribute__((no_sanitize_thread)) inline T shuffle_down(unsigned mask, const T& value, unsigned offset,
                                                          int logical_warp, int last_lane, const char* file, int line) {
    static_assert(std::is_trivially_copyable<T>::value, "cub shuffles need a trivially copyable type");
    constexpr std::size_t words = (sizeof(T) + 3) / 4;
    const int c = ((32 - logical_warp) << 8) | last_lane;
    unsigned int in[words] = {};
    unsigned int out[words];
    __tsan_read_range(const_cast<T*>(&value), sizeof(T));
    std::memcpy(in, &value, sizeof(T));
    for (std::size_t i = 0; i < words; ++i)
        out[i] =
            emu::detail::shfl_as<unsigned int>(emu::detail::ShflMode::down, mask, in[i], int(offset), c, file, line);
    T result;
    std::memcpy(&result, out, sizeof(T));
    return result;
}

// shfl.sync.up and shfl.sync.idx of any trivially copyable T in 4-byte words, within segments of `logical_warp` lanes
// (CUB's WarpScan). A lane whose source is below its segment gets its own value back.
template <class T>
__attribute__((no_sanitize_thread)) inline T shuffle_words(emu::detail::ShflMode mode, unsigned mask, const T& value,
                                                           int lane_arg, int c) {
    static_assert(std::is_trivially_copyable<T>::value, "cub shuffles need a trivially copyable type");
    constexpr std::size_t words = (sizeof(T) + 3) / 4;
    unsigned int in[words] = {};
    unsigned int out[words];
    __tsan_read_range(const_cast<T*>(&value), sizeof(T));
    std::memcpy(in, &value, sizeof(T));
    for (std::size_t i = 0; i < words; ++i)
        out[i] = emu::detail::shfl_as<unsigned int>(mode, mask, in[i], lane_arg, c, __builtin_FILE(), __builtin_LINE());
    T result;
    std::memcpy(&result, out, sizeof(T));
    return result;
}
template <class T>
inline T shuffle_up(unsigned mask, const T& value, unsigned offset, int logical_warp) {
    return shuffle_words(emu::detail::ShflMode::up, mask, value, int(offset), (32 - logical_warp) << 8);
}
template <class T>
inline T shuffle_idx(unsigned mask, const T& value, int src_lane, int logical_warp) {
    return shuffle_words(emu::detail::ShflMode::idx, mask, value, src_lane, ((32 - logical_warp) << 8) | 0x1f);
}

}  // namespace detail
}  // namespace cub
