// The few inline-PTX statements the emulator runs: a read of one special register into one variable,
//     asm("mov.u32 %0, %%laneid;" : "=r"(lane));        (volatile or not, the template split or not)
// which public kernels write for the lane id and lane masks. Every other asm statement in device code is refused by
// emu-nvcc (driver/arch_merge.cpp) with its file and line.
#pragma once
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace emu::rewrite {

struct PtxRead {
    std::size_t end;          // index of the statement's ';'
    std::string replacement;  // `(lane) = ::emu::detail::ptx_laneid();`
};

// `text(i)` is the i-th significant token (0 <= i < count); `at` is the index of the `asm` keyword. Returns the
// statement's rewrite when it is a special-register read the emulator knows, nothing otherwise.
std::optional<PtxRead> ptx_special_register_read(const std::function<std::string_view(std::size_t)>& text,
                                                 std::size_t count, std::size_t at);

}  // namespace emu::rewrite
