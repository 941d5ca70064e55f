// libcu++'s atomics (<cuda/atomic>, <cuda/std/atomic>): cuda::atomic_ref<T, Scope>, cuda::atomic<T, Scope> and their
// cuda::std forms, with the memory orders. Every operation is a GCC __atomic builtin, which the compiler's thread
// sanitizer instrumentation turns into the emulator's __tsan_atomic* hooks: the memory checker sees an atomic
// access, as for atomicAdd, so atomics never race with each other and still race with plain accesses. One OS thread
// runs every CUDA thread, so each scope (thread, block, device, system) behaves alike; the memory order is kept
// (sequentially consistent here, which every order allows).
#pragma once
#include <emu/thread_scope.hpp>

#include <cstring>
#include <type_traits>

namespace cuda {
namespace std {

enum class memory_order : int { relaxed, consume, acquire, release, acq_rel, seq_cst };
inline constexpr memory_order memory_order_relaxed = memory_order::relaxed;
inline constexpr memory_order memory_order_consume = memory_order::consume;
inline constexpr memory_order memory_order_acquire = memory_order::acquire;
inline constexpr memory_order memory_order_release = memory_order::release;
inline constexpr memory_order memory_order_acq_rel = memory_order::acq_rel;
inline constexpr memory_order memory_order_seq_cst = memory_order::seq_cst;

}  // namespace std

using std::memory_order;
using std::memory_order_acq_rel;
using std::memory_order_acquire;
using std::memory_order_consume;
using std::memory_order_relaxed;
using std::memory_order_release;
using std::memory_order_seq_cst;

namespace detail {

// The operations on the object at `p`, whatever owns it (atomic_ref refers to it, atomic holds it).
template <class T>
struct atomic_ops {
    static_assert(::std::is_trivially_copyable<T>::value, "cuda::atomic_ref needs a trivially copyable type");
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
                  "the emulator's cuda::atomic_ref takes objects of 1, 2, 4 or 8 bytes");
    static T load(T* p) {
        T v;
        __atomic_load(p, &v, __ATOMIC_SEQ_CST);
        return v;
    }
    static void store(T* p, T v) { __atomic_store(p, &v, __ATOMIC_SEQ_CST); }
    static T exchange(T* p, T v) {
        T old;
        __atomic_exchange(p, &v, &old, __ATOMIC_SEQ_CST);
        return old;
    }
    static bool compare_exchange(T* p, T& expected, T desired) {
        return __atomic_compare_exchange(p, &expected, &desired, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    }
    // A read-modify-write the builtins do not have for T (floating point, min, max): a compare-and-swap loop.
    template <class F>
    static T update(T* p, F f) {
        T old = load(p);
        while (!compare_exchange(p, old, f(old))) {}
        return old;
    }
    static T fetch_add(T* p, T v) {
        if constexpr (::std::is_integral<T>::value) return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
        else return update(p, [v](T o) { return static_cast<T>(o + v); });
    }
    static T fetch_sub(T* p, T v) {
        if constexpr (::std::is_integral<T>::value) return __atomic_fetch_sub(p, v, __ATOMIC_SEQ_CST);
        else return update(p, [v](T o) { return static_cast<T>(o - v); });
    }
    static T fetch_and(T* p, T v) { return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST); }
    static T fetch_or(T* p, T v) { return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST); }
    static T fetch_xor(T* p, T v) { return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST); }
    static T fetch_min(T* p, T v) {
        return update(p, [v](T o) { return v < o ? v : o; });
    }
    static T fetch_max(T* p, T v) {
        return update(p, [v](T o) { return o < v ? v : o; });
    }
};

// The members atomic_ref and atomic share; `Derived::ptr()` is the object. Every member is `const volatile`, as
// std::atomic's volatile overloads are, so that an atomic reached through a volatile pointer works too (the blog's
// CASError helper loads a `volatile cuda::std::atomic`).
template <class T, class Derived>
class atomic_api {
    T* p() const volatile { return static_cast<const volatile Derived*>(this)->ptr(); }
    using ops = atomic_ops<T>;

 public:
    using value_type = T;
    static constexpr bool is_always_lock_free = true;
    bool is_lock_free() const volatile noexcept { return true; }
    T load(memory_order = memory_order_seq_cst) const volatile noexcept { return ops::load(p()); }
    void store(T v, memory_order = memory_order_seq_cst) const volatile noexcept { ops::store(p(), v); }
    operator T() const volatile noexcept { return load(); }
    T exchange(T v, memory_order = memory_order_seq_cst) const volatile noexcept { return ops::exchange(p(), v); }
    bool compare_exchange_weak(T& expected, T desired, memory_order = memory_order_seq_cst,
                               memory_order = memory_order_seq_cst) const volatile noexcept {
        return ops::compare_exchange(p(), expected, desired);
    }
    bool compare_exchange_strong(T& expected, T desired, memory_order = memory_order_seq_cst,
                                 memory_order = memory_order_seq_cst) const volatile noexcept {
        return ops::compare_exchange(p(), expected, desired);
    }
    T fetch_add(T v, memory_order = memory_order_seq_cst) const volatile noexcept { return ops::fetch_add(p(), v); }
    T fetch_sub(T v, memory_order = memory_order_seq_cst) const volatile noexcept { return ops::fetch_sub(p(), v); }
    T fetch_and(T v, memory_order = memory_order_seq_cst) const volatile noexcept { return ops::fetch_and(p(), v); }
    T fetch_or(T v, memory_order = memory_order_seq_cst) const volatile noexcept { return ops::fetch_or(p(), v); }
    T fetch_xor(T v, memory_order = memory_order_seq_cst) const volatile noexcept { return ops::fetch_xor(p(), v); }
    T fetch_min(T v, memory_order = memory_order_seq_cst) const volatile noexcept { return ops::fetch_min(p(), v); }
    T fetch_max(T v, memory_order = memory_order_seq_cst) const volatile noexcept { return ops::fetch_max(p(), v); }
    T operator++() const volatile noexcept { return fetch_add(T(1)) + T(1); }
    T operator++(int) const volatile noexcept { return fetch_add(T(1)); }
    T operator--() const volatile noexcept { return fetch_sub(T(1)) - T(1); }
    T operator--(int) const volatile noexcept { return fetch_sub(T(1)); }
    T operator+=(T v) const volatile noexcept { return fetch_add(v) + v; }
    T operator-=(T v) const volatile noexcept { return fetch_sub(v) - v; }
};

}  // namespace detail

template <class T, thread_scope Scope = thread_scope_system>
class atomic_ref : public detail::atomic_api<T, atomic_ref<T, Scope>> {
    T* obj_;

 public:
    explicit atomic_ref(T& obj) noexcept : obj_(&obj) {}
    atomic_ref(const atomic_ref&) noexcept = default;
    atomic_ref& operator=(const atomic_ref&) = delete;
    T operator=(T v) const noexcept {
        this->store(v);
        return v;
    }
    T* ptr() const volatile noexcept { return obj_; }
};

// Trivially default-constructible, so that it can be a __shared__ variable, as in libcu++.
template <class T, thread_scope Scope = thread_scope_system>
class atomic : public detail::atomic_api<T, atomic<T, Scope>> {
    mutable T value_;

 public:
    atomic() noexcept = default;
    constexpr atomic(T v) noexcept : value_(v) {}
    atomic(const atomic&) = delete;
    atomic& operator=(const atomic&) = delete;
    T operator=(T v) noexcept {
        this->store(v);
        return v;
    }
    T operator=(T v) volatile noexcept {
        this->store(v);
        return v;
    }
    T* ptr() const volatile noexcept { return const_cast<T*>(&value_); }
};

namespace std {
template <class T>
using atomic_ref = ::cuda::atomic_ref<T, thread_scope_system>;
template <class T>
using atomic = ::cuda::atomic<T, thread_scope_system>;
inline void atomic_thread_fence(memory_order) noexcept { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
}  // namespace std

inline void atomic_thread_fence(memory_order, thread_scope = thread_scope_system) noexcept {
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

}  // namespace cuda
