#include "missing_library.hpp"

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
        {"curand", "cuRAND"},
        {"cufft", "cuFFT"},
        {"cusparse", "cuSPARSE"},
        {"cusolver", "cuSOLVER"},
        {"cudnn", "cuDNN"},
        {"nccl", "NCCL"},
        {"thrust/", "Thrust"},
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
    for (const auto& [prefix, library] : kLibraries) {
        if (header.rfind(prefix, 0) == 0)
            return "emu-nvcc: " + header + " is part of " + library +
                   ", which the CPU emulator does not provide (it provides the CUDA runtime, cooperative groups, CUB's "
                   "block and warp primitives, cuBLAS and cuBLASLt)";
    }
    return "";
}

}  // namespace emu::driver
