// What emu-nvcc builds with: the host compiler, the emulator's flags and libraries. The build writes them into
// emu-nvcc.conf next to the executable (grader/emulator/driver/CMakeLists.txt); EMU_NVCC_CONFIG names another file.
#pragma once
#include <string>
#include <vector>

namespace emu::driver {

struct Toolchain {
    std::string cxx;                    // the host C++ compiler
    std::string launcher;               // e.g. ccache, put before cxx for compile steps (empty: none)
    std::vector<std::string> cxxflags;  // EMU_CXXFLAGS_LIST: -std=c++17 -O0 -fsanitize=thread … -I<emulator>/include
    std::vector<std::string> ldflags;   // EMU_LDFLAGS_LIST
    std::string runtime_lib;            // libemu_runtime.a
    std::string cublas_lib;             // libemu_cublas.a, when the build has the target emu_cublas (else empty)
    int default_arch = 900;             // __CUDA_ARCH__ of the device pass when no -arch names one
    std::string pch_dir;                // the build's precompiled prelude (prelude_pch.hpp); empty: none
};

// Reads the configuration; on failure returns false with *error set.
bool load_toolchain(Toolchain* t, std::string* error);

}  // namespace emu::driver
