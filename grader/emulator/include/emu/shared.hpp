// __shared__ memory for rewritten CUDA code (see rewrite/rewrite.hpp).
//
// Every __shared__ variable lives in one arena mapped once per process, so its address is fixed; the memory checker
// keeps shadow state for each arena byte. A declaration gets its own SharedSlot (a function-local static in a
// lambda, so each declaration and each template instantiation has one); the first thread of a launch that reaches
// the declaration assigns its offset, and every block of that launch reuses it.
#pragma once
#include <cstddef>
#include <cstdint>

#include <emu/unchecked.hpp>

namespace emu {

struct SharedSlot {
    std::uint64_t launch = 0;  // the launch that assigned `offset`
    std::size_t offset = 0;
};

namespace detail {
extern std::uint64_t g_shared_launch;  // starts at 1, so a fresh slot never matches
extern char* g_shared_arena;
void* shared_lookup(SharedSlot* slot, const char* name, std::size_t size, std::size_t align);
void* dynamic_shared_base();
}  // namespace detail

// Reads the emulator's own state (the slot, the arena's address) inside kernels: not checked (emu/unchecked.hpp);
// the reference it returns is checked where the program uses it.
template <class T>
EMU_UNCHECKED T& shared_var(SharedSlot* slot, const char* name, std::size_t align = 0) {
    if (slot->launch == detail::g_shared_launch) return *reinterpret_cast<T*>(detail::g_shared_arena + slot->offset);
    return *static_cast<T*>(detail::shared_lookup(slot, name, sizeof(T), align > alignof(T) ? align : alignof(T)));
}

// `extern __shared__ E name[];`: the launch's dynamic shared memory, at a fixed address (1024-byte aligned).
template <class E>
E* dynamic_shared() {
    return static_cast<E*>(detail::dynamic_shared_base());
}
// `&name` of such an array is the array's address in CUDA (GUPS's `(benchtype*)&extern_mem`), the address of its
// first element; the rewriter writes `&name` as this call, since `name` is a pointer variable here.
template <class E>
using unbounded_array_t = E[];
template <class E>
unbounded_array_t<E>* array_address(E* const& name) {
    return reinterpret_cast<unbounded_array_t<E>*>(name);
}

}  // namespace emu
