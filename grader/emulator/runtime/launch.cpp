// Launch validation with the CUDA runtime's error codes, then execution; per-kernel attributes.
#include <cstdio>
#include <deque>
#include <map>
#include <mutex>
#include <string>

#include "api_state.hpp"
#include "engine.hpp"
#include "memcheck.hpp"

namespace emu::rt {
namespace {

constexpr std::size_t kDefaultDynamicShared = 48 * 1024;
constexpr std::size_t kOptinShared = 227 * 1024;

// Keyed by kernel_key(); "*" holds a value set for a function whose name could not be resolved (then it applies to
// every kernel: looser than CUDA, but only when the executable has no symbols).
std::map<std::string, int>& dynamic_shared_attr() {
    static std::map<std::string, int> m;
    return m;
}

}  // namespace

std::string kernel_key(const std::string& name) {
    std::string s = name;
    // Drop a trailing parameter list.
    if (!s.empty() && s.back() == ')') {
        int depth = 0;
        for (std::size_t i = s.size(); i-- > 0;) {
            if (s[i] == ')') ++depth;
            if (s[i] == '(' && --depth == 0) {
                s.erase(i);
                break;
            }
        }
    }
    // Drop template arguments.
    std::string out;
    int depth = 0;
    for (char ch : s) {
        if (ch == '<') ++depth;
        else if (ch == '>') --depth;
        else if (depth == 0) out += ch;
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    // Drop qualifiers and a return type ("void (anonymous namespace)::k").
    const auto colon = out.rfind("::");
    if (colon != std::string::npos) out.erase(0, colon + 2);
    const auto space = out.rfind(' ');
    if (space != std::string::npos) out.erase(0, space + 1);
    return out;
}

std::size_t max_dynamic_shared(const std::string& kernel) {
    auto& m = dynamic_shared_attr();
    auto it = m.find(kernel_key(kernel));
    if (it == m.end()) it = m.find("*");
    return it == m.end() ? kDefaultDynamicShared : static_cast<std::size_t>(it->second);
}

}  // namespace emu::rt

cudaError_t emu_func_set_attribute(const void* func, cudaFuncAttribute attr, int value) {
    using namespace emu::rt;
    if (sticky_error()) return record_error(sticky_error());
    if (!func) return record_error(cudaErrorInvalidDeviceFunction);
    if (attr == cudaFuncAttributePreferredSharedMemoryCarveout) {
        return (value < -1 || value > 100) ? record_error(cudaErrorInvalidValue) : cudaSuccess;
    }
    if (attr != cudaFuncAttributeMaxDynamicSharedMemorySize) return record_error(cudaErrorInvalidValue);
    if (value < 0 || static_cast<std::size_t>(value) > kOptinShared) return record_error(cudaErrorInvalidValue);
    std::string key = kernel_key(function_name(func));
    if (key.empty() || key == "??") key = "*";
    dynamic_shared_attr()[key] = value;
    return cudaSuccess;
}

cudaError_t emu_func_get_attributes(cudaFuncAttributes* attr, const void* func) {
    using namespace emu::rt;
    if (sticky_error()) return record_error(sticky_error());
    if (!attr || !func) return record_error(cudaErrorInvalidValue);
    *attr = cudaFuncAttributes{};
    attr->maxThreadsPerBlock = 1024;
    attr->numRegs = 32;
    attr->ptxVersion = 90;
    attr->binaryVersion = 90;
    attr->preferredShmemCarveout = -1;
    attr->maxDynamicSharedSizeBytes = static_cast<int>(max_dynamic_shared(function_name(func)));
    return cudaSuccess;
}

namespace emu::detail {

const char* kernel_name_of(const void* func) {
    static std::map<const void*, std::string> names;
    auto it = names.find(func);
    if (it == names.end()) {
        std::string n = emu::rt::function_name(func);
        it = names.emplace(func, n.empty() || n == "??" ? std::string("kernel") : n).first;
    }
    return it->second.c_str();
}

std::map<const void*, UntypedLauncher>& launchers() {
    static std::map<const void*, UntypedLauncher> m;
    return m;
}

void register_launcher(const void* func, UntypedLauncher launcher) { launchers()[func] = launcher; }

cudaError_t launch_untyped(const void* func, const LaunchConfig& cfg, void** args) {
    using namespace emu::rt;
    if (sticky_error()) return record_error(sticky_error());
    const auto it = func ? launchers().find(func) : launchers().end();
    if (it != launchers().end()) return it->second(func, cfg, args);
    std::fprintf(
        stderr,
        "emu: cudaLaunchKernel / cudaLaunchCooperativeKernel was given %s as a void*, and no kernel of that "
        "address is registered: emu-nvcc registers each kernel defined once, outside a template, so a template "
        "instance or an overloaded kernel cast to void* cannot be called with the argument array. Pass the "
        "kernel itself (cudaLaunchKernel(kernel<256>, …) instead of cudaLaunchKernel((void*)kernel<256>, …)); "
        "nvcc accepts both. A pointer that is no kernel fails like this on a GPU too.\n",
        func ? kernel_name_of(func) : "a null pointer");
    return record_error(cudaErrorInvalidDeviceFunction);
}

bool config_of(const cudaLaunchConfig_t* config, LaunchConfig* out, cudaError_t* err) {
    using namespace emu::rt;
    if (!config || (config->numAttrs > 0 && !config->attrs)) {
        *err = record_error(cudaErrorInvalidValue);
        return false;
    }
    *out = launch_config(config->gridDim, config->blockDim, config->dynamicSmemBytes, config->stream, false);
    for (unsigned i = 0; i < config->numAttrs; ++i) {
        const cudaLaunchAttribute& a = config->attrs[i];
        if (a.id == cudaLaunchAttributeCooperative) {
            out->cooperative = a.val.cooperative != 0;
        } else if (a.id == cudaLaunchAttributeClusterDimension &&
                   a.val.clusterDim.x * a.val.clusterDim.y * a.val.clusterDim.z > 1) {
            std::fprintf(
                stderr,
                "emu: cudaLaunchKernelEx with a cluster dimension of %u x %u x %u: thread block clusters are not "
                "emulated; the launch fails with cudaErrorNotSupported.\n",
                a.val.clusterDim.x, a.val.clusterDim.y, a.val.clusterDim.z);
            *err = record_error(cudaErrorNotSupported);
            return false;
        }
    }
    return true;
}

namespace {

// Dynamic parallelism: a grid launched by device code. CUDA 12's model (CDP2) lets a child grid start at any time
// after its launch and only promises that it completes before its parent grid does; a parent cannot wait for it
// (device-side cudaDeviceSynchronize is gone). Running every child after the whole parent grid, in launch order, is
// therefore one schedule a GPU may choose. The child's body (its arguments, copied at the launch) lives on the heap.
struct DeferredLaunch {
    const char* name;
    KernelThunk thunk;
    void* body;
    void (*destroy)(void*);
    std::size_t bytes;
    LaunchConfig cfg;
};
std::deque<DeferredLaunch>& deferred_launches() {
    static std::deque<DeferredLaunch> q;
    return q;
}

// The launch's shape and resources, with the runtime's error codes; cudaSuccess when it may run.
cudaError_t check_config(const char* name, const LaunchConfig& cfg) {
    using namespace emu::rt;
    const unsigned* g = cfg.grid;
    const unsigned* b = cfg.block;
    const unsigned long long threads = 1ull * b[0] * b[1] * b[2];
    const bool bad_block =
        b[0] == 0 || b[1] == 0 || b[2] == 0 || b[0] > 1024 || b[1] > 1024 || b[2] > 64 || threads > 1024;
    const bool bad_grid = g[0] == 0 || g[1] == 0 || g[2] == 0 || g[0] > 0x7fffffffu || g[1] > 65535 || g[2] > 65535;
    // CUDA 13 on an H200 answers every bad launch shape with cudaErrorInvalidValue, not
    // cudaErrorInvalidConfiguration (measured: docs/gpu-runs.md, 2026-11-29).
    if (bad_block || bad_grid) return cudaErrorInvalidValue;
    if (cfg.shared_bytes > max_dynamic_shared(name)) return cudaErrorInvalidValue;
    if (!stream_ok(cfg.stream) && cfg.stream != cudaStreamTailLaunch && cfg.stream != cudaStreamFireAndForget)
        return cudaErrorInvalidResourceHandle;
    if (cfg.cooperative) {
        // Every block of a cooperative grid must be resident at once: at most the occupancy times the SM count.
        int per_sm = 0;
        emu_occupancy(&per_sm, static_cast<int>(threads), cfg.shared_bytes);
        if (1ull * g[0] * g[1] * g[2] > 132ull * static_cast<unsigned>(per_sm))
            return cudaErrorCooperativeLaunchTooLarge;
    }
    return cudaSuccess;
}

void run_grid(const char* name, KernelThunk thunk, void* body, std::size_t body_bytes, const LaunchConfig& cfg) {
    using namespace emu::rt;
    emu::mc::set_launch_params(body, body_bytes);
    const unsigned* g = cfg.grid;
    const unsigned* b = cfg.block;
    const int err = execute_launch(name, thunk, body, Dim3{g[0], g[1], g[2]}, Dim3{b[0], b[1], b[2]}, cfg.shared_bytes,
                                   cfg.cooperative);
    if (err) make_sticky(static_cast<cudaError_t>(err));
}

}  // namespace

int run_launch(const char* name, KernelThunk thunk, void* body, const LaunchConfig& cfg, const BodyCopy& copy) {
    using namespace emu::rt;
    const ApiLock lock(api_mutex());  // the engine runs one grid at a time, whichever host thread launches it
    if (g_in_kernel) {                // a launch from device code: checked now, run after the grids before it
        if (cfg.cooperative) return record_error(cudaErrorNotSupported);
        const cudaError_t bad = check_config(name, cfg);
        if (bad) return record_error(bad);
        deferred_launches().push_back(DeferredLaunch{name, thunk, copy.clone(body), copy.destroy, copy.bytes, cfg});
        return cudaSuccess;
    }
    if (sticky_error()) return record_error(sticky_error());
    if (const cudaError_t bad = check_config(name, cfg)) return record_error(bad);
    run_grid(name, thunk, body, copy.bytes, cfg);
    // The child grids its blocks launched, and theirs, in launch order; after a fault they are dropped, as the
    // GPU's context is lost.
    auto& q = deferred_launches();
    while (!q.empty()) {
        const DeferredLaunch child = q.front();
        q.pop_front();
        if (!sticky_error()) run_grid(child.name, child.thunk, child.body, child.bytes, child.cfg);
        child.destroy(child.body);
    }
    return cudaSuccess;
}

}  // namespace emu::detail
