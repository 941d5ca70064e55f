// Blocks run one after the other, and by default in index order. A kernel whose result depends on that order is
// wrong on a GPU, where blocks run at once in any order: block 0's extra threads store into row 1 and block 1 then
// overwrites them, which leaves the right values here only because block 1 runs later. The memory checker reports
// such a dependence as a race between blocks, except where it cannot judge it: two atomic stores, or a launch that
// calls __threadfence() (global_shadow.cpp). Running the blocks in another order turns that dependence into wrong
// values, which a test compares. The grader runs every hidden test so, with a random order from the run's seed
// (grader/cli/grade/runner.cpp).
//
// `random:<seed>` is an affine permutation of the linear block indices, k -> (mul * k + add) mod total with mul prime
// to total: no table, whatever the grid's size, and never the index order itself when there are two blocks or more,
// since a kernel that depends on the order then fails for some pair of blocks in every test.
#include "block_order.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>

#include "memcheck.hpp"

namespace emu::rt {
namespace {

enum class Kind { index, reverse, random };

struct Choice {
    Kind kind = Kind::index;
    std::uint64_t seed = 0;
};

Choice parse(const char* v) {
    Choice c;
    if (!v || !*v || std::strcmp(v, "index") == 0) return c;
    if (std::strcmp(v, "reverse") == 0) {
        c.kind = Kind::reverse;
    } else if (std::strncmp(v, "random", 6) == 0 && (v[6] == '\0' || v[6] == ':')) {
        c.kind = Kind::random;
        c.seed = v[6] == ':' ? std::strtoull(v + 7, nullptr, 0) : 0;
    } else {
        std::fprintf(stderr, "emu: EMU_BLOCK_ORDER=%s not understood (index, reverse or random:<seed>); using index\n",
                     v);
    }
    return c;
}

std::uint64_t splitmix(std::uint64_t& s) {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

std::uint64_t g_launches = 0;  // a fresh order for every launch of the program

}  // namespace

BlockOrder::BlockOrder(Dim3 grid) : BlockOrder(grid, nullptr, ++g_launches) {}

BlockOrder::BlockOrder(Dim3 grid, const char* spec, std::uint64_t draw)
    : grid_(grid), total_(std::uint64_t{grid.x} * grid.y * grid.z) {
    // The environment's choice is kept on the memory checker's read-only page (memcheck.hpp), where code of the
    // program cannot set it back to the index order.
    static const bool loaded = [] {
        const Choice env = parse(std::getenv("EMU_BLOCK_ORDER"));
        mc::BoundsWriter w;
        w->block_order = static_cast<int>(env.kind);
        w->block_order_seed = env.seed;
        return true;
    }();
    (void)loaded;
    const Choice c =
        spec ? parse(spec) : Choice{static_cast<Kind>(mc::g_bounds.block_order), mc::g_bounds.block_order_seed};
    if (total_ < 2 || c.kind == Kind::index) return;
    if (c.kind == Kind::reverse) {
        mul_ = total_ - 1;  // -1 mod total
        add_ = total_ - 1;
        return;
    }
    std::uint64_t s = c.seed ^ (draw * 0xd1b54a32d192ed03ull);
    do {
        mul_ = 1 + splitmix(s) % (total_ - 1);
    } while (std::gcd(mul_, total_) != 1);
    add_ = splitmix(s) % total_;
    if (mul_ == 1 && add_ == 0) add_ = 1;  // never the index order
}

Dim3 BlockOrder::at(std::uint64_t k) const {
    const auto i = static_cast<std::uint64_t>((static_cast<unsigned __int128>(mul_) * k + add_) % total_);
    return Dim3{static_cast<unsigned>(i % grid_.x), static_cast<unsigned>(i / grid_.x % grid_.y),
                static_cast<unsigned>(i / grid_.x / grid_.y)};
}

}  // namespace emu::rt
