// An element of an array or buffer passed straight into a call, `f(x[i])`: g++'s ThreadSanitizer pass does not
// instrument a struct (__half, __nv_bfloat16, float4, a user's struct) copied from memory into a call's by-value
// argument, so the memory checker and the profiler would not see the read. emu-nvcc writes such an argument as
// `(::emu::detail::arg_probe(x[i]), x[i])`: the probe checks the read at the caller's line (its return address),
// and the argument itself is the original expression (type, value category and UBSan's bounds check unchanged), so
// emu-nvcc does this only where evaluating the element twice has no effect (no call, increment or assignment in it).
// Scalars are instrumented by g++ already: their probe does nothing.
//
// The store side, `y[i] = __float2bfloat16(v)`: g++ lets a call that returns a struct write its result straight
// into y[i], and its ThreadSanitizer pass does not instrument a call's left-hand side, so the store would go
// unseen. emu-nvcc writes such a statement's right-hand side as `::emu::detail::stored_value(...)`: the result is
// then a temporary that an ordinary, instrumented copy moves into y[i] (checked at the statement's line, once).
// The left-hand side is left as written, so UBSan's bounds check of a local array's index and the order of
// evaluation are unchanged.
#pragma once
#include <type_traits>

extern "C" void emu_arg_read(const void* p, unsigned long n, const void* pc, int maybe);  // runtime/tsan_hooks.cpp

namespace emu::detail {

template <class T>
using checked_element =
    std::bool_constant<std::is_lvalue_reference_v<T> && std::is_class_v<std::remove_reference_t<T>> &&
                       std::is_trivially_copyable_v<std::remove_reference_t<T>>>;

// A struct element. Not inlined: __builtin_return_address(0) must be the caller's call site. Not instrumented: it
// reads nothing itself.
template <class T, std::enable_if_t<checked_element<T>::value, int> = 0>
__attribute__((noinline, no_sanitize_thread)) constexpr void arg_probe(T&& v) noexcept {
    using E = std::remove_reference_t<T>;
    // A const element can only be read. A non-const one might be bound to a reference the callee writes through:
    // it is still checked for bounds and races, never reported as an uninitialized read.
    if (!__builtin_is_constant_evaluated())
        emu_arg_read(&v, sizeof(E), __builtin_return_address(0), std::is_const_v<E> ? 0 : 1);
}

// Anything else: nothing to check (g++ instruments it), inlined even at -O0.
template <class T, std::enable_if_t<!checked_element<T>::value, int> = 0>
__attribute__((always_inline)) inline constexpr void arg_probe(T&&) noexcept {}

// Hands back what it is given, type and value category unchanged; inlined even at -O0. What it changes is only
// that a call's result is materialized before the assignment copies it (see the top of this file).
template <class T>
__attribute__((always_inline)) inline constexpr T&& stored_value(T&& v) noexcept {
    return static_cast<T&&>(v);
}

}  // namespace emu::detail
