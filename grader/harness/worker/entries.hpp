// The worker's table of a lesson's entry points. A lesson lists its entry points once (an X-macro beside their
// declarations) and instantiates the table with WB_WORKER_ENTRIES; each entry is declared weak here, so a worker
// built from one exercise's file links even though the other exercises' functions are absent, and an entry point
// the file does not define (or defines with another signature) is reported as such instead of failing the link.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "wire.hpp"

namespace wb::worker {

// Device addresses of the buffers of the current call, by buffer id.
struct Buffers {
    virtual ~Buffers() = default;
    virtual void* device(std::uint64_t id) const = 0;  // throws when the id is not part of the call
};

struct Entry {
    const char* name;
    bool defined;
    void (*invoke)(const std::vector<wire::Arg>& args, const Buffers& buffers);
};

const std::vector<Entry>& entries();  // defined by the lesson through WB_WORKER_ENTRIES

template <class P>
P decode(const wire::Arg& a, const Buffers& b) {
    auto expect = [&](wire::ArgTag t) {
        if (a.tag != t) throw std::runtime_error("argument of the wrong kind");
    };
    if constexpr (std::is_same_v<P, cudaStream_t>) {
        expect(wire::ArgTag::stream);
        return P{};
    } else if constexpr (std::is_pointer_v<P>) {
        if (a.tag == wire::ArgTag::null_pointer) return nullptr;
        expect(wire::ArgTag::pointer);
        using Byte = std::conditional_t<std::is_const_v<std::remove_pointer_t<P>>, const unsigned char, unsigned char>;
        return reinterpret_cast<P>(static_cast<Byte*>(b.device(a.buffer)) + a.offset);
    } else if constexpr (std::is_same_v<P, float>) {
        expect(wire::ArgTag::f32);
        const auto bits = static_cast<std::uint32_t>(a.bits);
        float f;
        std::memcpy(&f, &bits, 4);
        return f;
    } else if constexpr (std::is_same_v<P, double>) {
        expect(wire::ArgTag::f64);
        double d;
        std::memcpy(&d, &a.bits, 8);
        return d;
    } else if constexpr (std::is_integral_v<P> && sizeof(P) == 4) {
        expect(wire::ArgTag::i32);
        return static_cast<P>(static_cast<std::uint32_t>(a.bits));
    } else if constexpr (std::is_integral_v<P> && sizeof(P) == 8) {
        expect(wire::ArgTag::i64);
        return static_cast<P>(a.bits);
    } else {
        static_assert(sizeof(P) == 0, "an entry-point parameter type the remote call cannot carry");
    }
}

template <class... A, std::size_t... I>
void invoke_with(void (*fn)(A...), const std::vector<wire::Arg>& args, const Buffers& b, std::index_sequence<I...>) {
    if (args.size() != sizeof...(A)) throw std::runtime_error("wrong number of arguments");
    std::tuple<A...> values{decode<A>(args[I], b)...};
    std::apply(fn, values);
}

template <class... A>
void invoke(void (*fn)(A...), const std::vector<wire::Arg>& args, const Buffers& b) {
    invoke_with(fn, args, b, std::index_sequence_for<A...>{});
}

}  // namespace wb::worker

#define WB_WORKER_WEAK_DECL(fn) extern decltype(fn) fn __attribute__((weak));
#define WB_WORKER_ENTRY(fn)                                                                         \
    ::wb::worker::Entry{#fn, &fn != nullptr,                                                        \
                        [](const std::vector<::wb::wire::Arg>& a, const ::wb::worker::Buffers& b) { \
                            ::wb::worker::invoke(&fn, a, b);                                        \
                        }},
// LIST is the lesson's X-macro: LIST(X) expands X(entry) for every entry point.
#define WB_WORKER_ENTRIES(LIST)                                                     \
    LIST(WB_WORKER_WEAK_DECL)                                                       \
    const std::vector<::wb::worker::Entry>& ::wb::worker::entries() {               \
        static const std::vector<::wb::worker::Entry> table{LIST(WB_WORKER_ENTRY)}; \
        return table;                                                               \
    }
