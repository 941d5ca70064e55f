// cg::reduce: every member of a tile or coalesced group gets op over all members' values, combined in rank order
// (a tree: member r takes member r + d's partial at step d), so any associative operator works.
#pragma once
#include <cooperative_groups/details_collectives.h>

namespace cooperative_groups {

template <class G, class T, class Op>
std::decay_t<T> reduce(const G& g, T&& value, Op&& op, const char* file = __builtin_FILE(),
                       int line = __builtin_LINE()) {
    details::check_group<G>();
    using V = std::decay_t<T>;
    V v = value;
    const long long n = static_cast<long long>(g.num_threads());
    const long long r = static_cast<long long>(g.thread_rank());
    for (long long d = 1; d < n; d <<= 1) {
        const V other = details::peek(g, v, r + d, file, line);
        if (r % (2 * d) == 0 && r + d < n) v = op(v, other);
    }
    return details::peek(g, v, 0, file, line);
}

}  // namespace cooperative_groups
