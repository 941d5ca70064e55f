// The order in which the blocks of a (non-cooperative) launch run, one after the other.
#pragma once
#include <cstdint>

#include "exec.hpp"

namespace emu::rt {

// EMU_BLOCK_ORDER: `index` (the default: x fastest, then y, then z), `reverse`, or `random:<seed>`.
class BlockOrder {
 public:
    // The order of one launch of `grid` blocks: EMU_BLOCK_ORDER (read once), drawn afresh for each launch.
    explicit BlockOrder(Dim3 grid);
    // The order `spec` names (as EMU_BLOCK_ORDER would), its `draw`-th random draw.
    BlockOrder(Dim3 grid, const char* spec, std::uint64_t draw);
    std::uint64_t count() const { return total_; }
    Dim3 at(std::uint64_t k) const;  // the k-th block to run

 private:
    Dim3 grid_;
    std::uint64_t total_, mul_ = 1, add_ = 0;  // block k runs the one of linear index (mul * k + add) mod total
};

}  // namespace emu::rt
