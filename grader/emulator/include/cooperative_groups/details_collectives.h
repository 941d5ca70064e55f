// What cg::reduce and the scans are built from: the value of another member of a tile or coalesced group, by rank,
// through the group's own checked collective (a warp shuffle with the group's mask, or a multi-warp tile exchange).
#pragma once
#include <cooperative_groups.h>

#include <type_traits>

namespace cooperative_groups {

// The operators CUDA provides; less and greater pick the minimum and the maximum.
template <class T = void>
struct plus {
    T operator()(const T& a, const T& b) const { return a + b; }
};
template <class T = void>
struct less {
    T operator()(const T& a, const T& b) const { return b < a ? b : a; }
};
template <class T = void>
struct greater {
    T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};
template <class T = void>
struct bit_and {
    T operator()(const T& a, const T& b) const { return a & b; }
};
template <class T = void>
struct bit_or {
    T operator()(const T& a, const T& b) const { return a | b; }
};
template <class T = void>
struct bit_xor {
    T operator()(const T& a, const T& b) const { return a ^ b; }
};

namespace details {

template <class G>
struct is_tile : std::false_type {};
template <unsigned N, class P>
struct is_tile<thread_block_tile<N, P>> : std::true_type {};

// Member `src`'s value (the caller's own when src is outside [0, size)). Every member must call it.
template <unsigned N, class P, class T>
T peek(const thread_block_tile<N, P>& g, const T& v, long long src, const char* file, int line) {
    const bool inside = src >= 0 && src < static_cast<long long>(N);
    if constexpr (N > 32) {
        return g.exchange(v, inside ? static_cast<int>(src) : -1, file, line);
    } else {
        const unsigned lane = inside ? g.place().first % 32 + static_cast<unsigned>(src) : block_rank() % 32;
        return __shfl_sync(g.lane_mask(), v, static_cast<int>(lane), 32, file, line);
    }
}
template <class T>
T peek(const coalesced_group& g, const T& v, long long src, const char* file, int line) {
    const bool inside = src >= 0 && src < static_cast<long long>(g.num_threads());
    const unsigned lane = inside ? g.lane_of(static_cast<unsigned>(src)) : block_rank() % 32;
    return __shfl_sync(g.coalesced_mask(), v, static_cast<int>(lane), 32, file, line);
}

template <class G>
constexpr void check_group() {
    static_assert(is_tile<G>::value || std::is_same_v<G, coalesced_group>,
                  "cg::reduce and the scans take a thread_block_tile or a coalesced_group");
}

}  // namespace details
}  // namespace cooperative_groups
