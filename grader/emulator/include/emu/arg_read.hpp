// An element of an array or buffer passed straight into a call, `f(x[i])`: g++'s ThreadSanitizer pass does not
// instrument a struct (__half, __nv_bfloat16, float4, a user's struct) copied from memory into a call's by-value
// argument, so the memory checker and the profiler would not see the read. emu-nvcc writes such an argument as
// `::emu::detail::arg_read(x[i])`, which checks the read at the caller's line (its return address) and hands back
// the same element: the same value category and type, so overloads, references and templates see what they saw.
// Scalars are instrumented by g++ already and pass through untouched.
#pragma once
#include <type_traits>

extern "C" void emu_arg_read(const void* p, unsigned long n, const void* pc, int maybe);   // runtime/tsan_hooks.cpp
extern "C" void emu_element_store(void* p, unsigned long n, const void* pc);                // runtime/tsan_hooks.cpp

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

// A statement `y[i] = v;` whose element is a struct becomes `::emu::detail::stored(y[i]) = v;`: g++ does not
// instrument a store of a struct a call returns (`y[i] = __float2bfloat16(v)` writes straight into memory), so the
// store is checked here, once, at the statement's line, and made without instrumentation. C++17 evaluates the right
// operand of an assignment first, overloaded or not, so the order of evaluation is unchanged.
template <class E>
struct ElementStore {
  E& dst;
  const void* pc;
  // The value's read (when it is an element too: `y[i] = x[j]`) and the store, each checked once at the statement.
  __attribute__((no_sanitize_thread)) void operator=(const E& v) && {
    emu_arg_read(&v, sizeof(E), pc, 0);
    emu_element_store(&dst, sizeof(E), pc);
    dst = v;
  }
  __attribute__((no_sanitize_thread)) void operator=(E&& v) && {
    emu_arg_read(&v, sizeof(E), pc, 0);
    emu_element_store(&dst, sizeof(E), pc);
    dst = v;
  }
  // A value of another type goes through E's own assignment, as it did before the rewrite.
  template <class U, std::enable_if_t<!std::is_same_v<std::decay_t<U>, E>, int> = 0>
  void operator=(U&& v) && {
    dst = static_cast<U&&>(v);
  }
};

template <class T, std::enable_if_t<checked_element<T>::value && !std::is_const_v<std::remove_reference_t<T>>, int> = 0>
__attribute__((noinline)) ElementStore<std::remove_reference_t<T>> stored(T&& dst) noexcept {
  return {dst, __builtin_return_address(0)};
}

template <class T,
          std::enable_if_t<!(checked_element<T>::value && !std::is_const_v<std::remove_reference_t<T>>), int> = 0>
__attribute__((always_inline)) inline T&& stored(T&& dst) noexcept {
  return static_cast<T&&>(dst);
}

}  // namespace emu::detail
