// Which backend runs the hidden tests: gpu (nvcc + a real device), emu (the CPU emulator) or static (no execution).
#pragma once

#include <string>

#include "util/context.hpp"

namespace workbook::grade {

enum class Backend { gpu, emu, static_only };

std::string backend_name(Backend b);
// "Ran on: …" wording for reports.
std::string backend_description(Backend b, const std::string& gpu_name);

// nvcc from the config, else $CUDA_HOME/bin, /usr/local/cuda/bin, PATH. Empty when none.
std::string find_nvcc(const util::Context& ctx);

struct GpuProbe {
    bool usable = false;
    std::string name;    // "NVIDIA H200" when known
    std::string reason;  // why not usable, for the report
};
// nvcc present, `nvidia-smi -L` lists a GPU, and the CUDA runtime can use it (workbook-gpu-probe, when built).
GpuProbe probe_gpu(const util::Context& ctx);

}  // namespace workbook::grade
