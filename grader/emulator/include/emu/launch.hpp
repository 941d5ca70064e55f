// Kernel launches. The rewriter turns `K<<<grid, block, smem, stream>>>(args)` into
//   ::emu::launch("K", [=](auto&&... a) { K(a...); }, grid, block, smem, stream)(args)
// The arguments are copied once (as CUDA copies them into the launch's parameter buffer); each CUDA thread then
// calls the kernel with that copy, so every thread gets its own by-value parameters.
#pragma once
#include <cstddef>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>

#include <cuda_runtime_api.h>
#include <emu/unchecked.hpp>
#include <emu/vector_types_compat.hpp>

namespace emu::detail {

struct LaunchConfig {
    unsigned grid[3];
    unsigned block[3];
    std::size_t shared_bytes;
    cudaStream_t stream;
    bool cooperative = false;  // cudaLaunchCooperativeKernel: grid.sync() is allowed
};

using KernelThunk = void (*)(void* body);
// A launch's body is a closure holding its own copy of the kernel call and the arguments. A launch made by device code
// (dynamic parallelism) runs after the grid that made it, so the runtime keeps a copy of its body on the heap.
// `bytes` is the closure's size: the launch's parameter buffer, which the kernel may read (runtime/kernel_reach.cpp).
struct BodyCopy {
    void* (*clone)(const void* body);
    void (*destroy)(void* body);
    std::size_t bytes;
};
// Emulator code that runs inside the launching kernel and writes the host heap: not checked (emu/unchecked.hpp).
template <class Body>
EMU_UNCHECKED void* clone_body(const void* body) {
    return new Body(*static_cast<const Body*>(body));
}
template <class Body>
EMU_UNCHECKED void destroy_body(void* body) {
    delete static_cast<Body*>(body);
}
template <class Body>
inline constexpr BodyCopy kBodyCopy{&clone_body<Body>, &destroy_body<Body>, sizeof(Body)};

// Validates the configuration (errors as the CUDA runtime reports them), then runs every block. Defined in
// runtime/launch.cpp.
// Returns the launch's configuration error (cudaSuccess when it ran; an error while running is sticky, as on a GPU).
int run_launch(const char* name, KernelThunk thunk, void* body, const LaunchConfig& cfg, const BodyCopy& copy);
// The kernel's name for diagnostics, from the executable's symbols ("kernel" when unknown); stable storage.
const char* kernel_name_of(const void* func);

template <class T>
void launch_dims(const T& v, unsigned out[3]) {
    if constexpr (std::is_arithmetic_v<T> || std::is_enum_v<T>) {
        // A count converts to dim3's unsigned as nvcc converts it: a floating-point one (`<<<ceil(n / 256.0), 256>>>`,
        // the NVTX blog's launches) is truncated. A negative count becomes a huge one and is rejected as an invalid
        // configuration, as by CUDA.
        out[0] = static_cast<unsigned>(v);
        out[1] = 1;
        out[2] = 1;
    } else {
        out[0] = static_cast<unsigned>(v.x);
        out[1] = static_cast<unsigned>(v.y);
        out[2] = static_cast<unsigned>(v.z);
    }
}

// CUDA passes a kernel's parameters to the device as their bytes: the launch's copy is made on the host (and
// destroyed there), and no constructor or destructor of a parameter runs in device code. A plain call would
// copy-construct and destroy a parameter of class type in every CUDA thread: CUDA by Example's Lock, whose destructor
// calls cudaFree, then frees its mutex in the first thread. For a kernel the rewriter can name (defined once in the
// translation unit, not a template), each thread therefore gets a bytewise copy of such a parameter and the kernel is
// called through the ABI's own convention for it: x86-64 and AArch64 pass a class that is not trivial for calls as
// the address of a caller-made object, which the callee owns and the caller destroys. Passing the copy's address
// and never destroying it is the GPU's behaviour. Other parameters are passed as before.
template <class P, class A>
inline constexpr bool kPassedAsBytes =
    std::is_class_v<P>&& std::is_same_v<std::remove_cv_t<std::remove_reference_t<A>>, P> &&
    (!std::is_trivially_destructible_v<P> || !std::is_trivially_copy_constructible_v<P> ||
     !std::is_trivially_move_constructible_v<P>);

template <class P, class A, bool Bytes = kPassedAsBytes<P, A>>
struct ParamSlot {  // an ordinary parameter: the argument itself, converted by the call
    A& arg;
    using Passed = P;
    A& get() { return arg; }
};
template <class P, class A>
struct ParamSlot<P, A, true> {  // this thread's copy of the launch's bytes; never destroyed, as on a GPU
    alignas(P) unsigned char bytes[sizeof(P)];
    explicit ParamSlot(A& arg) { std::memcpy(bytes, static_cast<const void*>(&arg), sizeof(P)); }
    using Passed = P*;
    P* get() { return reinterpret_cast<P*>(bytes); }
};

template <class L, class... P>
struct ByteCall {
    void (*fn)(P...);
    L by_name;  // the plain call, for every launch without such a parameter (and one that leaves defaults out)
    template <class... A>
    void operator()(A&... args) const {
        if constexpr (sizeof...(A) != sizeof...(P)) {
            by_name(args...);
        } else if constexpr (!(kPassedAsBytes<P, A> || ...)) {
            by_name(args...);
        } else {
            call(std::index_sequence_for<P...>{}, args...);
        }
    }
    template <std::size_t... I, class... A>
    void call(std::index_sequence<I...>, A&... args) const {
        std::tuple<ParamSlot<P, A>...> slots{ParamSlot<P, A>{args}...};
        using Abi = void (*)(typename ParamSlot<P, A>::Passed...);
        reinterpret_cast<Abi>(fn)(std::get<I>(slots).get()...);
    }
};
template <class L, class... P>
ByteCall<L, P...> byte_call(void (&fn)(P...), L by_name) {
    return ByteCall<L, P...>{&fn, std::move(by_name)};
}

// A kernel's reference parameter (`__global__ void k(Data& d)`, the Unified Memory blog's launch by reference) is
// passed by CUDA as the address of the launch's argument: the kernel reads and writes the caller's object itself
// (managed memory), never a copy. Only a kernel the rewriter names (ByteCall) says which of its parameters are
// references; its launch then binds them to the arguments and copies the rest, as before.
template <class F>
struct ReferenceParams {
    static constexpr bool any = false;
    template <std::size_t I>
    static constexpr bool at = false;
};
template <class L, class... P>
struct ReferenceParams<ByteCall<L, P...>> {
    static constexpr bool any = (std::is_lvalue_reference_v<P> || ...);
    template <std::size_t I>
    static constexpr bool at = [] {
        constexpr bool refs[] = {std::is_lvalue_reference_v<P>..., false};
        return I < sizeof...(P) && refs[I];
    }();
};
template <bool Reference, class A>
struct ArgCapture {  // the launch's copy of an argument, read as a const lvalue like a by-copy capture
    std::decay_t<A> value;
    const std::decay_t<A>& get() const { return value; }
};
template <class A>
struct ArgCapture<true, A> {  // the argument itself, for a reference parameter
    std::remove_reference_t<A>* object;
    explicit ArgCapture(A& arg) : object(&arg) {}
    std::remove_reference_t<A>& get() const { return *object; }
};

template <class Body>
void invoke_body(void* body) {
    (*static_cast<Body*>(body))();
}

template <class F>
class Launch {
 public:
    Launch(const char* name, F fn, const LaunchConfig& cfg) : name_(name), fn_(std::move(fn)), cfg_(cfg) {}

    template <class... A>
    int operator()(A&&... args) {
        if constexpr (ReferenceParams<F>::any) {
            return run_binding_references(std::index_sequence_for<A...>{}, args...);
        } else {
            // The by-copy captures are the parameter buffer. A closure rather than std::apply over a tuple: kernels
            // are built at -O0, where each library layer would be a real, instrumented call for every CUDA thread.
            auto body = [fn = fn_, args...]() EMU_UNCHECKED { fn(args...); };
            return run_launch(name_, &invoke_body<decltype(body)>, &body, cfg_, kBodyCopy<decltype(body)>);
        }
    }

 private:
    template <std::size_t... I, class... A>
    int run_binding_references(std::index_sequence<I...>, A&... args) {
        std::tuple<ArgCapture<ReferenceParams<F>::template at<I>, A>...> captured{
            ArgCapture<ReferenceParams<F>::template at<I>, A>{args}...};
        auto body = [fn = fn_, captured]() EMU_UNCHECKED { fn(std::get<I>(captured).get()...); };
        return run_launch(name_, &invoke_body<decltype(body)>, &body, cfg_, kBodyCopy<decltype(body)>);
    }

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

// ---- cudaLaunchKernel and cudaLaunchCooperativeKernel ----------------------------------------------------------
// CUDA passes the arguments as an array of pointers to them; the kernel's own type says how many and what they are.
// A kernel passed itself gives that type here. A kernel cast to void* has lost it: emu-nvcc registers every
// non-template kernel at static initialisation (register_kernel, written after each definition by the rewriter), and
// the void* is looked up there.
namespace emu::detail {

template <class... P, std::size_t... I>
cudaError_t launch_with_args(void (*func)(P...), const LaunchConfig& cfg, void** args, std::index_sequence<I...>) {
    if (sizeof...(P) > 0 && !args) return cudaErrorInvalidValue;
    // The parameters' bytes, as for a launch by name (ByteCall above): cudaLaunchKernel passes them as bytes too.
    auto by_pointer = [func](auto&... a) { func(a...); };
    using Call = ByteCall<decltype(by_pointer), P...>;
    Launch<Call> launch(kernel_name_of(reinterpret_cast<const void*>(func)), Call{func, by_pointer}, cfg);
    return static_cast<cudaError_t>(launch(*static_cast<std::remove_cv_t<std::remove_reference_t<P>>*>(args[I])...));
}

inline LaunchConfig launch_config(dim3 grid, dim3 block, std::size_t smem, cudaStream_t stream, bool cooperative) {
    LaunchConfig cfg{};
    launch_dims(grid, cfg.grid);
    launch_dims(block, cfg.block);
    cfg.shared_bytes = smem;
    cfg.stream = stream;
    cfg.cooperative = cooperative;
    return cfg;
}

template <class... P>
cudaError_t launch_kernel(void (*func)(P...), dim3 grid, dim3 block, void** args, std::size_t smem, cudaStream_t stream,
                          bool cooperative) {
    return launch_with_args(func, launch_config(grid, block, smem, stream, cooperative), args,
                            std::index_sequence_for<P...>{});
}

// A registered kernel's launcher: gives the void* its type back.
using UntypedLauncher = cudaError_t (*)(const void* func, const LaunchConfig& cfg, void** args);
template <class... P>
cudaError_t launch_registered(const void* func, const LaunchConfig& cfg, void** args) {
    auto* typed = reinterpret_cast<void (*)(P...)>(const_cast<void*>(func));
    return launch_with_args(typed, cfg, args, std::index_sequence_for<P...>{});
}
void register_launcher(const void* func, UntypedLauncher launcher);  // runtime/launch.cpp
// Written by emu-nvcc at the start of every kernel's body: false (the body then returns at once) when no launch runs
// it, i.e. the kernel was called like a host function; reported once per kernel (runtime/unlaunched_kernel.cpp).
bool kernel_body_entered(const char* name, const void* caller);
template <class... P>
bool register_kernel(void (*func)(P...)) {
    register_launcher(reinterpret_cast<const void*>(func), &launch_registered<P...>);
    return true;
}

// A kernel given as a void*: launched through its registration; one that has none (a template instance, an
// overloaded name, a pointer that is no kernel) fails with cudaErrorInvalidDeviceFunction after a message naming it
// (runtime/launch.cpp).
cudaError_t launch_untyped(const void* func, const LaunchConfig& cfg, void** args);

}  // namespace emu::detail

template <class... P>
cudaError_t cudaLaunchKernel(void (*func)(P...), dim3 grid, dim3 block, void** args, std::size_t smem = 0,
                             cudaStream_t stream = 0) {
    return emu::detail::launch_kernel(func, grid, block, args, smem, stream, false);
}
template <class... P>
cudaError_t cudaLaunchCooperativeKernel(void (*func)(P...), dim3 grid, dim3 block, void** args, std::size_t smem = 0,
                                        cudaStream_t stream = 0) {
    return emu::detail::launch_kernel(func, grid, block, args, smem, stream, true);
}
inline cudaError_t cudaLaunchKernel(const void* func, dim3 grid, dim3 block, void** args, std::size_t smem = 0,
                                    cudaStream_t stream = 0) {
    return emu::detail::launch_untyped(func, emu::detail::launch_config(grid, block, smem, stream, false), args);
}
inline cudaError_t cudaLaunchCooperativeKernel(const void* func, dim3 grid, dim3 block, void** args,
                                               std::size_t smem = 0, cudaStream_t stream = 0) {
    return emu::detail::launch_untyped(func, emu::detail::launch_config(grid, block, smem, stream, true), args);
}

#include <emu/launch_ex.hpp>
