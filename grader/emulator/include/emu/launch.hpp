// Kernel launches. The rewriter turns `K<<<grid, block, smem, stream>>>(args)` into
//   ::emu::launch("K", [&](auto&&... a) { K(a...); }, grid, block, smem, stream)(args)
// The arguments are copied once (as CUDA copies them into the launch's parameter buffer); each CUDA thread then
// calls the kernel with that copy, so every thread gets its own by-value parameters.
#pragma once
#include <cstddef>
#include <type_traits>
#include <utility>

#include <cuda_runtime_api.h>
#include <emu/vector_types_compat.hpp>

namespace emu::detail {

struct LaunchConfig {
  unsigned grid[3];
  unsigned block[3];
  std::size_t shared_bytes;
  cudaStream_t stream;
};

using KernelThunk = void (*)(void* body);

// Validates the configuration (errors as the CUDA runtime reports them), then runs every block. Defined in
// runtime/launch.cpp.
void run_launch(const char* name, KernelThunk thunk, void* body, const LaunchConfig& cfg);

template <class T>
void launch_dims(const T& v, unsigned out[3]) {
  if constexpr (std::is_integral_v<T> || std::is_enum_v<T>) {
    // A negative count becomes a huge one and is rejected as an invalid configuration, as by CUDA.
    out[0] = static_cast<unsigned>(v);
    out[1] = 1;
    out[2] = 1;
  } else {
    out[0] = static_cast<unsigned>(v.x);
    out[1] = static_cast<unsigned>(v.y);
    out[2] = static_cast<unsigned>(v.z);
  }
}

template <class Body>
void invoke_body(void* body) {
  (*static_cast<Body*>(body))();
}

template <class F>
class Launch {
 public:
  Launch(const char* name, F fn, const LaunchConfig& cfg) : name_(name), fn_(std::move(fn)), cfg_(cfg) {}

  template <class... A>
  void operator()(A&&... args) {
    // The by-copy captures are the parameter buffer. A closure rather than std::apply over a tuple: kernels are
    // built at -O0, where each library layer would be a real, instrumented call for every CUDA thread.
    auto body = [this, args...]() { fn_(args...); };
    run_launch(name_, &invoke_body<decltype(body)>, &body, cfg_);
  }

 private:
  const char* name_;
  F fn_;
  LaunchConfig cfg_;
};

}  // namespace emu::detail

namespace emu {

template <class F, class G, class B>
detail::Launch<F> launch(const char* name, F fn, const G& grid, const B& block, std::size_t shared_bytes = 0,
                         cudaStream_t stream = 0) {
  detail::LaunchConfig cfg{};
  detail::launch_dims(grid, cfg.grid);
  detail::launch_dims(block, cfg.block);
  cfg.shared_bytes = shared_bytes;
  cfg.stream = stream;
  return detail::Launch<F>(name, std::move(fn), cfg);
}

}  // namespace emu
