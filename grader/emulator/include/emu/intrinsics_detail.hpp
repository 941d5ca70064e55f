// Entry points of the device built-ins into the runtime (runtime/scheduler.cpp, runtime/collectives.cpp).
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace emu::detail {

enum class ShflMode : int { idx = 0, up = 1, down = 2, bfly = 3 };
enum class VoteOp : int { ballot = 0, any = 1, all = 2 };
// grid: grid_group::sync() of a cooperative launch; the block waits there until every block of the grid has arrived.
enum class BarrierOp : int { plain = 0, count = 1, and_ = 2, or_ = 3, grid = 4 };
// __reduce_*_sync: min and max come signed (int overloads) and unsigned.
enum class ReduceOp : int { add = 0, umin = 1, umax = 2, smin = 3, smax = 4, and_ = 5, or_ = 6, xor_ = 7 };
// Collectives of a cooperative-groups tile wider than a warp (runtime/tile_groups.cpp).
enum class GroupOp : int { sync = 0, exchange = 1 };

int barrier(BarrierOp op, int pred, const char* file, int line);
void syncwarp(unsigned mask, const char* file, int line);
std::uint64_t shfl(ShflMode mode, unsigned mask, std::uint64_t value, unsigned size, int b, int c, const char* file,
                   int line);
unsigned vote(VoteOp op, unsigned mask, int pred, const char* file, int line);
unsigned activemask(const char* file, int line);
unsigned warp_reduce(ReduceOp op, unsigned mask, unsigned value, const char* file, int line);
// __match_any_sync (all == false) and __match_all_sync (all == true; *pred set when every lane of the mask agrees).
unsigned warp_match(bool all, unsigned mask, std::uint64_t value, int* pred, const char* file, int line);
// Every thread with linear id in [first, first + count) must arrive at a collective of the same kind. `exchange`
// answers each with the value of member `src` (its own value when src is outside [0, count)); `sync` orders memory
// like a barrier. `what` names the call for diagnostics ("thread_block_tile<64>::sync()").
std::uint64_t group_collective(GroupOp op, unsigned first, unsigned count, std::uint64_t value, int src,
                               const char* what, const char* file, int line);
void yield_thread();
// __threadfence() and __threadfence_system(): no effect on memory (one block runs at a time), but the memory checker
// stops reporting races between blocks for that launch (it does not model fence-and-atomic ordering).
void threadfence();
long long clock_ticks();
[[noreturn]] void trap(const char* file, int line);

// The type a shuffle moves: CUDA's overloads take int for narrower integers; anything else of at most 8 bytes
// (float, double, long long, __half, __nv_bfloat16, __half2, …) moves as its own bits.
template <class T>
using shfl_type = std::conditional_t<std::is_integral_v<T> && (sizeof(T) < sizeof(int)), int, T>;

// Not instrumented: it only moves the caller's value through locals, and kernels are built at -O0 where the
// instrumentation of those local copies would cost more than the shuffle itself.
template <class T>
__attribute__((no_sanitize_thread)) T shfl_as(ShflMode mode, unsigned mask, T var, int b, int c, const char* file,
                                              int line) {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8, "a warp shuffle moves at most 8 bytes");
    std::uint64_t bits = 0;
    std::memcpy(&bits, &var, sizeof(T));
    bits = shfl(mode, mask, bits, sizeof(T), b, c, file, line);
    T out;
    std::memcpy(&out, &bits, sizeof(T));
    return out;
}

// The `c` operand of PTX shfl.sync as CUDA's own headers build it from `width`.
constexpr int shfl_c_clamp(int width) { return ((32 - width) << 8) | 0x1f; }
constexpr int shfl_c_up(int width) { return (32 - width) << 8; }

}  // namespace emu::detail
