// The order in which a launch runs its blocks (runtime/block_order.cpp): every block once, whatever the order, and
// the random order never the index order, since the grader relies on it to turn a kernel whose result depends on the
// order of its blocks into wrong values.
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "workbook_catch.hpp"
#include "block_order.hpp"

namespace {

using emu::rt::BlockOrder;
using emu::rt::Dim3;

std::vector<std::tuple<unsigned, unsigned, unsigned>> run(Dim3 grid, const char* spec, std::uint64_t draw) {
    const BlockOrder order(grid, spec, draw);
    std::vector<std::tuple<unsigned, unsigned, unsigned>> seen;
    for (std::uint64_t k = 0; k < order.count(); ++k) {
        const Dim3 b = order.at(k);
        seen.emplace_back(b.z, b.y, b.x);  // in index order when sorted
    }
    return seen;
}

}  // namespace

TEST_CASE("every block runs once in every order, and only the index order is the index order") {
    const Dim3 grids[] = {{1, 1, 1}, {2, 1, 1}, {3, 1, 1}, {5, 1, 1},   {6, 1, 1},
                          {3, 4, 2}, {7, 3, 1}, {1, 1, 9}, {1000, 1, 1}};
    for (const Dim3& g : grids) {
        const std::size_t total = std::size_t{g.x} * g.y * g.z;
        std::vector<std::tuple<unsigned, unsigned, unsigned>> index_order;
        for (unsigned z = 0; z < g.z; ++z)
            for (unsigned y = 0; y < g.y; ++y)
                for (unsigned x = 0; x < g.x; ++x) index_order.emplace_back(z, y, x);
        CHECK(run(g, "index", 1) == index_order);
        CHECK(run(g, nullptr, 1) == index_order);  // EMU_BLOCK_ORDER unset: the default
        std::vector<std::string> specs = {"reverse"};
        for (int seed = 0; seed < 40; ++seed) specs.push_back("random:" + std::to_string(seed));
        for (const std::string& spec : specs)
            for (std::uint64_t draw = 1; draw <= 3; ++draw) {
                INFO("grid " << g.x << "x" << g.y << "x" << g.z << ", " << spec << ", draw " << draw);
                const auto seen = run(g, spec.c_str(), draw);
                REQUIRE(seen.size() == total);
                CHECK(std::set<std::tuple<unsigned, unsigned, unsigned>>(seen.begin(), seen.end()).size() == total);
                if (total >= 2) CHECK(seen != index_order);
            }
    }
    // The same seed and draw give the same order (a grade replayed with SEED=n), another seed usually another one.
    CHECK(run({1000, 1, 1}, "random:7", 2) == run({1000, 1, 1}, "random:7", 2));
    CHECK(run({1000, 1, 1}, "random:7", 2) != run({1000, 1, 1}, "random:8", 2));
}
