// Stands in for the real prelude when the memory checker is tested without the execution engine: only what the
// scenarios use (the __shared__ machinery and CUDA's space qualifiers).
#pragma once
#include <emu/shared.hpp>
#define __device__
#define __global__
#define __forceinline__ inline

// A launch that runs the kernel once on the host: enough to check that rewritten launches compile.
namespace emu {
template <class F, class... Config>
auto launch(const char*, F fn, const Config&...) {
    return [fn](auto&&... args) { fn(args...); };
}
}  // namespace emu
