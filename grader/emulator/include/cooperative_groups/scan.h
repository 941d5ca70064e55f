// cg::inclusive_scan and cg::exclusive_scan over a tile or coalesced group, in rank order (Hillis-Steele: at step d
// member r combines member r - d's partial in front of its own). The exclusive scan's rank 0 gets a value-initialized
// T (CUDA leaves it undefined; for plus, and for the bit_or / bit_xor identities, that is the identity).
#pragma once
#include <cooperative_groups/details_collectives.h>

namespace cooperative_groups {

template <class G, class T, class Op>
std::decay_t<T> inclusive_scan(const G& g, T&& value, Op&& op, const char* file = __builtin_FILE(),
                               int line = __builtin_LINE()) {
    details::check_group<G>();
    using V = std::decay_t<T>;
    V v = value;
    const long long n = static_cast<long long>(g.num_threads());
    const long long r = static_cast<long long>(g.thread_rank());
    for (long long d = 1; d < n; d <<= 1) {
        const V other = details::peek(g, v, r - d, file, line);
        if (r >= d) v = op(other, v);
    }
    return v;
}
template <class G, class T>
std::decay_t<T> inclusive_scan(const G& g, T&& value, const char* file = __builtin_FILE(),
                               int line = __builtin_LINE()) {
    return inclusive_scan(g, value, plus<std::decay_t<T>>(), file, line);
}

template <class G, class T, class Op>
std::decay_t<T> exclusive_scan(const G& g, T&& value, Op&& op, const char* file = __builtin_FILE(),
                               int line = __builtin_LINE()) {
    using V = std::decay_t<T>;
    const V inclusive = inclusive_scan(g, value, op, file, line);
    const long long r = static_cast<long long>(g.thread_rank());
    const V before = details::peek(g, inclusive, r - 1, file, line);
    return r == 0 ? V{} : before;
}
template <class G, class T>
std::decay_t<T> exclusive_scan(const G& g, T&& value, const char* file = __builtin_FILE(),
                               int line = __builtin_LINE()) {
    return exclusive_scan(g, value, plus<std::decay_t<T>>(), file, line);
}

}  // namespace cooperative_groups
