#include "backend.hpp"

#include <cstdlib>

#include "util/process.hpp"
#include "util/util.hpp"

namespace workbook::grade {

namespace {
// The first non-empty line of a program's output, without surrounding blanks.
std::string first_line(const std::string& text) {
    for (const auto& line : util::split_lines(text))
        if (std::string t = util::trim(line); !t.empty()) return t;
    return "";
}
}  // namespace

std::string backend_name(Backend b) {
    switch (b) {
        case Backend::gpu: return "gpu";
        case Backend::emu: return "emu";
        case Backend::static_only: return "static";
    }
    return "?";
}

std::string backend_description(Backend b, const std::string& gpu_name) {
    switch (b) {
        case Backend::gpu: return "GPU (gpu" + (gpu_name.empty() ? std::string() : ", " + gpu_name) + ")";
        case Backend::emu: return "CPU emulator (emu) — not a GPU measurement";
        case Backend::static_only: return "nowhere: static review only (static) — no test was executed";
    }
    return "?";
}

std::string find_nvcc(const util::Context& ctx) {
    std::string p = util::config_string(ctx, "/cuda/nvcc");
    if (!p.empty() && !util::which(p).empty()) return p;
    if (const char* h = std::getenv("CUDA_HOME"); h && *h) {
        std::string c = std::string(h) + "/bin/nvcc";
        if (!util::which(c).empty()) return c;
    }
    if (!util::which("/usr/local/cuda/bin/nvcc").empty()) return "/usr/local/cuda/bin/nvcc";
    return util::which("nvcc");
}

GpuProbe probe_gpu(const util::Context& ctx) {
    GpuProbe g;
    if (find_nvcc(ctx).empty()) {
        g.reason = "no nvcc found";
        return g;
    }
    std::string smi = util::which("nvidia-smi");
    if (smi.empty()) {
        g.reason = "no nvidia-smi found (no NVIDIA driver)";
        return g;
    }
    util::ProcessSpec spec;
    spec.argv = {smi, "-L"};
    spec.timeout_s = 20;
    auto r = util::run_process(spec);
    if (r.exit_code != 0) {
        g.reason = "nvidia-smi lists no usable GPU";
        return g;
    }
    for (const auto& line : util::split_lines(r.out)) {
        if (line.rfind("GPU ", 0) == 0) {
            g.usable = true;
            // "GPU 0: NVIDIA H200 (UUID: GPU-…)"
            auto colon = line.find(": ");
            auto paren = line.find(" (UUID");
            if (colon != std::string::npos)
                g.name = line.substr(colon + 2, paren == std::string::npos ? std::string::npos : paren - colon - 2);
            break;
        }
    }
    if (!g.usable) {
        g.reason = "nvidia-smi lists no GPU";
        return g;
    }
    // nvidia-smi only shows that a driver sees the GPU; the probe asks the CUDA runtime the harnesses link.
    const std::string probe = util::config_string(ctx, "/cuda/probe");
    if (probe.empty() || util::which(probe).empty()) return g;  // a build without the probe: trust nvidia-smi
    util::ProcessSpec ps;
    ps.argv = {probe};
    ps.timeout_s = 60;
    auto pr = util::run_process(ps);
    std::string said = first_line(pr.out);
    if (pr.started && !pr.timed_out && pr.exit_code == 0) {
        if (!said.empty()) g.name = said;
        return g;
    }
    g.usable = false;
    if (pr.timed_out) said = "the probe did not answer within 60 s";
    else if (said.empty() && !pr.started) said = "the probe did not start: " + pr.start_error;
    else if (said.empty())
        said = "the probe ended with status " + std::to_string(pr.exit_code) + " " + first_line(pr.err);
    g.reason = "the CUDA runtime cannot use the GPU that nvidia-smi lists (" +
               (g.name.empty() ? std::string("unnamed") : g.name) + "): " + said;
    if (said.find("InsufficientDriver") != std::string::npos)
        g.reason += "; the NVIDIA driver is older than the CUDA toolkit that compiles the tests: update the driver";
    return g;
}

}  // namespace workbook::grade
