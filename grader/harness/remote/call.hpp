// WB_CALL(launch_rmsnorm, in, w, out, M, N, eps, stream): calls the submission's entry point in the worker, with
// the argument types of its declaration (so a test that passes the wrong types does not compile). Pointers must
// point into remote::Buffers; the stream is always the default stream.
// WB_TIMED_CALL(timing, launch_rmsnorm, …): the same call, then timed runs (remote::Timing; the times are in
// last_call().reply, measured by the worker: advice, never points).
#pragma once

#include <cuda_runtime.h>

#include <cstring>
#include <type_traits>

#include "client.hpp"

namespace wb::remote {

template <class T>
wire::Arg encode_arg(T v) {
    if constexpr (std::is_same_v<T, cudaStream_t>) {
        return scalar_arg(wire::ArgTag::stream, 0);
    } else if constexpr (std::is_pointer_v<T>) {
        return pointer_arg(static_cast<const void*>(v));
    } else if constexpr (std::is_same_v<T, float>) {
        std::uint32_t b;
        std::memcpy(&b, &v, 4);
        return scalar_arg(wire::ArgTag::f32, b);
    } else if constexpr (std::is_same_v<T, double>) {
        std::uint64_t b;
        std::memcpy(&b, &v, 8);
        return scalar_arg(wire::ArgTag::f64, b);
    } else if constexpr (std::is_integral_v<T> && sizeof(T) == 4) {
        return scalar_arg(wire::ArgTag::i32, static_cast<std::uint32_t>(v));
    } else if constexpr (std::is_integral_v<T> && sizeof(T) == 8) {
        return scalar_arg(wire::ArgTag::i64, static_cast<std::uint64_t>(v));
    } else {
        static_assert(sizeof(T) == 0, "an entry-point parameter type the remote call cannot carry");
    }
}

template <class F>
struct Remote;

template <class... A>
struct Remote<void(A...)> {
    static void call(const char* name, A... a) { call_entry(name, {encode_arg<A>(a)...}); }
    static void timed(const Timing& timing, const char* name, A... a) {
        call_entry(name, {encode_arg<A>(a)...}, timing);
    }
};

}  // namespace wb::remote

#define WB_CALL(fn, ...) ::wb::remote::Remote<decltype(fn)>::call(#fn, __VA_ARGS__)
#define WB_TIMED_CALL(timing, fn, ...) ::wb::remote::Remote<decltype(fn)>::timed(timing, #fn, __VA_ARGS__)
