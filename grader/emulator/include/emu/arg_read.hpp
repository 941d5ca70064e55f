// An element of an array or buffer passed straight into a call, `f(x[i])`: g++'s ThreadSanitizer pass does not
// instrument a struct (__half, __nv_bfloat16, float4, a user's struct) copied from memory into a call's by-value
// argument, so the memory checker and the profiler would not see the read. emu-nvcc writes such an argument as
// `::emu::detail::arg_read(x[i])`, which checks the read at the caller's line (its return address) and hands back
// the same element: the same value category and type, so overloads, references and templates see what they saw.
// Scalars are instrumented by g++ already and pass through untouched.
#pragma once
#include <type_traits>

extern "C" void emu_arg_read(const void* p, unsigned long n, const void* pc, int maybe);   // runtime/tsan_hooks.cpp

namespace emu::detail {

template <class T>
using checked_element = std::bool_constant<std::is_lvalue_reference_v<T> &&
                                           std::is_class_v<std::remove_reference_t<T>> &&
                                           std::is_trivially_copyable_v<std::remove_reference_t<T>>>;

// A struct element. Not inlined: __builtin_return_address(0) must be the caller's call site. Not instrumented: it
// reads nothing itself.
template <class T, std::enable_if_t<checked_element<T>::value, int> = 0>
__attribute__((noinline, no_sanitize_thread)) constexpr T&& arg_read(T&& v) noexcept {
  using E = std::remove_reference_t<T>;
  // A const element can only be read. A non-const one might be bound to a reference the callee writes through:
  // it is still checked for bounds and races, never reported as an uninitialized read.
  if (!__builtin_is_constant_evaluated())
    emu_arg_read(&v, sizeof(E), __builtin_return_address(0), std::is_const_v<E> ? 0 : 1);
  return static_cast<T&&>(v);
}

// Anything else passes through, inlined even at -O0 (no call per scalar argument in the kernels' hot loops).
template <class T, std::enable_if_t<!checked_element<T>::value, int> = 0>
__attribute__((always_inline)) inline constexpr T&& arg_read(T&& v) noexcept {
  return static_cast<T&&>(v);
}

}  // namespace emu::detail
