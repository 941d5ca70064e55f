#include "missing_library.hpp"

#include <algorithm>
#include <filesystem>
#include <utility>
#include <vector>

namespace emu::driver {

std::string missing_library_note(const std::string& compiler_messages) {
    // GCC's wording: "file.cu:5:10: fatal error: curand.h: No such file or directory".
    static const std::string kFatal = "fatal error: ";
    const std::size_t at = compiler_messages.find(kFatal);
    if (at == std::string::npos) return "";
    const std::size_t begin = at + kFatal.size();
    const std::size_t end = compiler_messages.find(": No such file", begin);
    if (end == std::string::npos) return "";
    const std::string header = compiler_messages.substr(begin, end - begin);
    // Header name prefixes of NVIDIA's libraries, as their packages install them.
    static const std::vector<std::pair<std::string, std::string>> kLibraries = {
        {"cufft", "cuFFT"},
        {"cusparse", "cuSPARSE"},
        {"cusolver", "cuSOLVER"},
        {"cudnn", "cuDNN"},
        {"nccl", "NCCL"},
        {"cutlass/", "CUTLASS"},
        {"cute/", "CUTLASS (CuTe)"},
        {"npp", "NPP"},
        {"nvrtc", "NVRTC"},
        {"nvjpeg", "nvJPEG"},
        {"mma.h", "the warp matrix (tensor core, nvcuda::wmma) API"},
        {"cuda_gl_interop", "the OpenGL interoperability API"},
        {"cuda_d3d", "the Direct3D interoperability API"},
        {"cuda_egl_interop", "the EGL interoperability API"},
    };
    if (header.rfind("thrust/", 0) == 0)
        return "emu-nvcc: " + header +
               " is part of Thrust, which the CPU emulator takes from Debian's libthrust-dev package, not installed "
               "here (scripts/setup/packages.sh installs it: apt-get install libthrust-dev)";
    for (const auto& [prefix, library] : kLibraries) {
        if (header.rfind(prefix, 0) == 0)
            return "emu-nvcc: " + header + " is part of " + library +
                   ", which the CPU emulator does not provide (it provides the CUDA runtime, the driver API's common "
                   "calls, "
                   "cooperative groups, CUB's block and warp primitives and device-wide reductions, scans and radix "
                   "sorts, Thrust, cuBLAS, cuBLASLt and cuRAND)";
    }
    return "";
}

RealCub real_cub_header(std::string_view preprocessed) {
    // A line marker entering a file under a cub/ folder: `# 1 "/usr/include/cub/block/block_exchange.cuh" 1 3`.
    std::size_t pos = 0, line = 1;
    while (pos < preprocessed.size()) {
        const std::size_t eol = std::min(preprocessed.find('\n', pos), preprocessed.size());
        const std::string_view l = preprocessed.substr(pos, eol - pos);
        const std::size_t cub = l.find("/cub/");
        if (!l.empty() && l[0] == '#' && cub != std::string_view::npos && l.find('"') < cub) {
            const std::size_t q = l.find('"');
            const std::string file(l.substr(q + 1, l.find('"', q + 1) - q - 1));
            const std::string root = file.substr(0, file.find("/cub/") + 1);
            // The emulator's own CUB lives beside its emu/ folder.
            if (!std::filesystem::exists(root + "emu/prelude.hpp")) return {true, file, line};
        }
        pos = eol + 1;
        ++line;
    }
    return {};
}

}  // namespace emu::driver
