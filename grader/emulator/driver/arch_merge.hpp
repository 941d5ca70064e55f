// __CUDA_ARCH__ for a compiler that builds one binary: nvcc preprocesses every .cu file twice, a device pass with
// __CUDA_ARCH__ defined (its output keeps the kernels and __device__ functions) and a host pass without (its output
// keeps the host functions). The emulator compiles one translation unit, so it merges the two preprocessed texts:
// where they differ, a kernel's or a __device__ function's body comes from the device pass, a host function's from
// the host pass, and a declaration only one pass has is kept. What cannot be merged without choosing one side for
// both (a __host__ __device__ body, or two different declarations at namespace scope) is refused with a message
// naming the file and line, never resolved silently. Inline assembly in device code (PTX) is refused here too, at
// its line.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "rewrite.hpp"

namespace emu::driver {

struct MergeResult {
    std::string text;                             // preprocessed text with line markers, as g++ -E writes it
    std::vector<emu::rewrite::Problem> problems;  // regions that cannot be merged (with the original file:line)
    bool differed = false;                        // the two passes were not identical (the source uses __CUDA_ARCH__)
};

MergeResult merge_arch_passes(std::string_view host, std::string_view device);

}  // namespace emu::driver
