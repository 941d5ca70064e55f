// The entry points g++ -fsanitize=thread calls from instrumented code. The student's rewritten .cu is compiled with
// that flag but linked without libtsan: these definitions are the whole "ThreadSanitizer runtime". Outside kernels
// they only stop host code from touching GPU memory; inside, accesses to device memory and to the __shared__ arena
// go to the memory checker.
// Atomics simply perform the operation (one OS thread runs all fibers, so any order is sequentially consistent).
//
// This file itself must not be instrumented (it is part of emu_runtime, built without -fsanitize=thread).
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <emu/api.h>

#include "memcheck.hpp"

using emu::mc::kAtomic;
using emu::mc::kAtomicStore;
using emu::mc::kNaturalAlign;
using emu::mc::kWrite;

#define EMU_LIKELY(x) __builtin_expect(!!(x), 1)

namespace {

inline void hook(const void* p, std::size_t n, unsigned flags, const void* pc) {
    if (EMU_LIKELY(!emu::rt::g_in_kernel)) {
        const auto a = reinterpret_cast<std::uintptr_t>(p);
        if (__builtin_expect(a - emu::mc::g_heap_lo < emu::mc::g_heap_hi - emu::mc::g_heap_lo, 0))
            emu::mc::host_access(a, n, flags, pc);
        return;
    }
    ++emu::mc::g_hook_calls;
    emu::mc::access(p, n, flags, pc);
}

inline void atomic_hook(const volatile void* p, std::size_t n, const void* pc, unsigned extra = 0) {
    if (EMU_LIKELY(!emu::rt::g_in_kernel)) return;
    emu::mc::access(const_cast<const void*>(p), n, kAtomic | kWrite | kNaturalAlign | extra, pc);
}

}  // namespace

extern "C" {

void __tsan_init() {}
void __tsan_func_entry(void*) {}
void __tsan_func_exit() {}
void __tsan_vptr_update(void**, void*) {}
void __tsan_vptr_read(void**) {}

#define EMU_PLAIN(N)                                                                         \
    void __tsan_read##N(void* p) { hook(p, N, kNaturalAlign, __builtin_return_address(0)); } \
    void __tsan_write##N(void* p) { hook(p, N, kNaturalAlign | kWrite, __builtin_return_address(0)); }
EMU_PLAIN(1)
EMU_PLAIN(2)
EMU_PLAIN(4)
EMU_PLAIN(8)
EMU_PLAIN(16)
#undef EMU_PLAIN

#define EMU_UNALIGNED(N)                                                                   \
    void __tsan_unaligned_read##N(void* p) { hook(p, N, 0, __builtin_return_address(0)); } \
    void __tsan_unaligned_write##N(void* p) { hook(p, N, kWrite, __builtin_return_address(0)); }
EMU_UNALIGNED(2)
EMU_UNALIGNED(4)
EMU_UNALIGNED(8)
EMU_UNALIGNED(16)
#undef EMU_UNALIGNED

// An element passed straight into a call (emu-nvcc's arg_read, include/emu/arg_read.hpp): checked as a read at the
// caller's line, which g++ does not instrument for a struct copied into a by-value argument.
void emu_arg_read(const void* p, unsigned long n, const void* pc, int maybe) {
    hook(p, n, maybe ? emu::mc::kMaybeRead : 0, pc);
}
void __tsan_read_range(void* p, unsigned long n) { hook(p, n, 0, __builtin_return_address(0)); }
void __tsan_write_range(void* p, unsigned long n) { hook(p, n, kWrite, __builtin_return_address(0)); }

// ---- C library functions device code calls (include/emu/checked_libc.hpp) -----------------------------------
// The student's calls of memcpy, memset, modff, … land here under their checked names: the bytes they read and
// write go to the checker as the caller's accesses (at its line), then the C library does the work. No alignment
// is assumed for the copies (memcpy takes any address); the second results of the math functions are the
// naturally aligned objects the caller passed.
void* emu_checked_memcpy(void* d, const void* s, unsigned long n) {
    if (n) {
        hook(s, n, 0, __builtin_return_address(0));
        hook(d, n, kWrite, __builtin_return_address(0));
    }
    return memcpy(d, s, n);
}
void* emu_checked_memmove(void* d, const void* s, unsigned long n) {
    if (n) {
        hook(s, n, 0, __builtin_return_address(0));
        hook(d, n, kWrite, __builtin_return_address(0));
    }
    return memmove(d, s, n);
}
void* emu_checked_memset(void* d, int c, unsigned long n) {
    if (n) hook(d, n, kWrite, __builtin_return_address(0));
    return memset(d, c, n);
}
int emu_checked_memcmp(const void* a, const void* b, unsigned long n) {
    if (n) {
        hook(a, n, 0, __builtin_return_address(0));
        hook(b, n, 0, __builtin_return_address(0));
    }
    return memcmp(a, b, n);
}
// nan and nanf read their tag, a string, up to its NUL: each byte as the caller's read.
#define EMU_TAG(tag)                                \
    for (const char* c = (tag);; ++c) {             \
        hook(c, 1, 0, __builtin_return_address(0)); \
        if (*c == '\0') break;                      \
    }
float emu_checked_nanf(const char* tag) {
    EMU_TAG(tag);
    return nanf(tag);
}
double emu_checked_nan(const char* tag) {
    EMU_TAG(tag);
    return nan(tag);
}
#undef EMU_TAG
#define EMU_STORES(p) hook(p, sizeof *(p), kNaturalAlign | kWrite, __builtin_return_address(0))
float emu_checked_modff(float x, float* i) {
    EMU_STORES(i);
    return modff(x, i);
}
double emu_checked_modf(double x, double* i) {
    EMU_STORES(i);
    return modf(x, i);
}
float emu_checked_frexpf(float x, int* e) {
    EMU_STORES(e);
    return frexpf(x, e);
}
double emu_checked_frexp(double x, int* e) {
    EMU_STORES(e);
    return frexp(x, e);
}
void emu_checked_sincosf(float x, float* s, float* c) {
    EMU_STORES(s);
    EMU_STORES(c);
    sincosf(x, s, c);
}
void emu_checked_sincos(double x, double* s, double* c) {
    EMU_STORES(s);
    EMU_STORES(c);
    sincos(x, s, c);
}
float emu_checked_remquof(float x, float y, int* q) {
    EMU_STORES(q);
    return remquof(x, y, q);
}
double emu_checked_remquo(double x, double y, int* q) {
    EMU_STORES(q);
    return remquo(x, y, q);
}
#undef EMU_STORES
// malloc and free in a .cu file (emu_checked_malloc, emu_checked_free) are the device heap's: device_heap.cpp.

// ---- atomics ------------------------------------------------------------------------------------------------
typedef char a8;
typedef short a16;
typedef int a32;
typedef long long a64;
typedef __int128 a128;
typedef int morder;

#define EMU_ATOMIC(N)                                                                                   \
    a##N __tsan_atomic##N##_load(const volatile a##N* a, morder) {                                      \
        atomic_hook(a, sizeof(a##N), __builtin_return_address(0));                                      \
        return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                                    \
    }                                                                                                   \
    void __tsan_atomic##N##_store(volatile a##N* a, a##N v, morder) {                                   \
        atomic_hook(a, sizeof(a##N), __builtin_return_address(0), kAtomicStore);                        \
        __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                                       \
    }                                                                                                   \
    a##N __tsan_atomic##N##_exchange(volatile a##N* a, a##N v, morder) {                                \
        atomic_hook(a, sizeof(a##N), __builtin_return_address(0));                                      \
        return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);                                             \
    }                                                                                                   \
    a##N __tsan_atomic##N##_fetch_add(volatile a##N* a, a##N v, morder) {                               \
        atomic_hook(a, sizeof(a##N), __builtin_return_address(0));                                      \
        return __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST);                                              \
    }                                                                                                   \
    a##N __tsan_atomic##N##_fetch_sub(volatile a##N* a, a##N v, morder) {                               \
        atomic_hook(a, sizeof(a##N), __builtin_return_address(0));                                      \
        return __atomic_fetch_sub(a, v, __ATOMIC_SEQ_CST);                                              \
    }                                                                                                   \
    a##N __tsan_atomic##N##_fetch_and(volatile a##N* a, a##N v, morder) {                               \
        atomic_hook(a, sizeof(a##N), __builtin_return_address(0));                                      \
        return __atomic_fetch_and(a, v, __ATOMIC_SEQ_CST);                                              \
    }                                                                                                   \
    a##N __tsan_atomic##N##_fetch_or(volatile a##N* a, a##N v, morder) {                                \
        atomic_hook(a, sizeof(a##N), __builtin_return_address(0));                                      \
        return __atomic_fetch_or(a, v, __ATOMIC_SEQ_CST);                                               \
    }                                                                                                   \
    a##N __tsan_atomic##N##_fetch_xor(volatile a##N* a, a##N v, morder) {                               \
        atomic_hook(a, sizeof(a##N), __builtin_return_address(0));                                      \
        return __atomic_fetch_xor(a, v, __ATOMIC_SEQ_CST);                                              \
    }                                                                                                   \
    a##N __tsan_atomic##N##_fetch_nand(volatile a##N* a, a##N v, morder) {                              \
        atomic_hook(a, sizeof(a##N), __builtin_return_address(0));                                      \
        return __atomic_fetch_nand(a, v, __ATOMIC_SEQ_CST);                                             \
    }                                                                                                   \
    int __tsan_atomic##N##_compare_exchange_strong(volatile a##N* a, a##N* c, a##N v, morder, morder) { \
        atomic_hook(a, sizeof(a##N), __builtin_return_address(0));                                      \
        return __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);         \
    }                                                                                                   \
    int __tsan_atomic##N##_compare_exchange_weak(volatile a##N* a, a##N* c, a##N v, morder, morder) {   \
        atomic_hook(a, sizeof(a##N), __builtin_return_address(0));                                      \
        return __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);         \
    }                                                                                                   \
    a##N __tsan_atomic##N##_compare_exchange_val(volatile a##N* a, a##N c, a##N v, morder, morder) {    \
        atomic_hook(a, sizeof(a##N), __builtin_return_address(0));                                      \
        __atomic_compare_exchange_n(a, &c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);               \
        return c;                                                                                       \
    }
EMU_ATOMIC(8)
EMU_ATOMIC(16)
EMU_ATOMIC(32)
EMU_ATOMIC(64)
#undef EMU_ATOMIC

// 16-byte atomics would need libatomic (or -mcx16); plain operations are enough because every fiber runs on the
// one OS thread that drives the emulator.
static a128 plain_rmw(volatile a128* a, a128 v, int op) {
    a128 old = *a;
    switch (op) {
        case 0: *a = v; break;
        case 1: *a = old + v; break;
        case 2: *a = old - v; break;
        case 3: *a = old & v; break;
        case 4: *a = old | v; break;
        case 5: *a = old ^ v; break;
        default: *a = ~(old & v); break;
    }
    return old;
}
a128 __tsan_atomic128_load(const volatile a128* a, morder) {
    atomic_hook(a, 16, __builtin_return_address(0));
    return *a;
}
void __tsan_atomic128_store(volatile a128* a, a128 v, morder) {
    atomic_hook(a, 16, __builtin_return_address(0), kAtomicStore);
    *a = v;
}
#define EMU_RMW128(NAME, OP)                                         \
    a128 __tsan_atomic128_##NAME(volatile a128* a, a128 v, morder) { \
        atomic_hook(a, 16, __builtin_return_address(0));             \
        return plain_rmw(a, v, OP);                                  \
    }
EMU_RMW128(exchange, 0)
EMU_RMW128(fetch_add, 1)
EMU_RMW128(fetch_sub, 2)
EMU_RMW128(fetch_and, 3)
EMU_RMW128(fetch_or, 4)
EMU_RMW128(fetch_xor, 5)
EMU_RMW128(fetch_nand, 6)
#undef EMU_RMW128
static int cas128(volatile a128* a, a128* c, a128 v) {
    if (*a == *c) {
        *a = v;
        return 1;
    }
    *c = *a;
    return 0;
}
int __tsan_atomic128_compare_exchange_strong(volatile a128* a, a128* c, a128 v, morder, morder) {
    atomic_hook(a, 16, __builtin_return_address(0));
    return cas128(a, c, v);
}
int __tsan_atomic128_compare_exchange_weak(volatile a128* a, a128* c, a128 v, morder, morder) {
    atomic_hook(a, 16, __builtin_return_address(0));
    return cas128(a, c, v);
}
a128 __tsan_atomic128_compare_exchange_val(volatile a128* a, a128 c, a128 v, morder, morder) {
    atomic_hook(a, 16, __builtin_return_address(0));
    cas128(a, &c, v);
    return c;
}

void __tsan_atomic_thread_fence(morder) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
void __tsan_atomic_signal_fence(morder) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }

}  // extern "C"
