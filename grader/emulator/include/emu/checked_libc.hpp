// The C library functions device code may call that read or write memory through a pointer: memcpy, memmove,
// memset, memcmp, the math functions that store a second result (modf, frexp, sincos, remquo), nan and printf. The
// C library is not instrumented, so without this the memory checker never saw what they touch: a kernel that read a
// shared-memory value through memcpy (with a size the compiler cannot inline) raced with its writer unseen, and a
// memcpy past a buffer was no out-of-bounds access. Each declaration gives the function the assembler name of a
// checked version in the runtime (runtime/tsan_hooks.cpp), which hands the bytes to the checker as reads and writes
// at the caller's line and then calls the C library. Calls the compiler makes itself follow the name too
// (__builtin_memcpy, std::copy's memmove, std::modf's modff). Included by every .cu file emu-nvcc compiles, after the
// C headers (emu/rewritten.hpp); the emulator's own runtime is compiled without it.
#pragma once
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <new>

extern "C" {
void* memcpy(void*, const void*, size_t) noexcept __asm__("emu_checked_memcpy");
void* memmove(void*, const void*, size_t) noexcept __asm__("emu_checked_memmove");
void* memset(void*, int, size_t) noexcept __asm__("emu_checked_memset");
int memcmp(const void*, const void*, size_t) noexcept __asm__("emu_checked_memcmp");
float modff(float, float*) noexcept __asm__("emu_checked_modff");
double modf(double, double*) noexcept __asm__("emu_checked_modf");
float frexpf(float, int*) noexcept __asm__("emu_checked_frexpf");
double frexp(double, int*) noexcept __asm__("emu_checked_frexp");
void sincosf(float, float*, float*) noexcept __asm__("emu_checked_sincosf");
void sincos(double, double*, double*) noexcept __asm__("emu_checked_sincos");
float remquof(float, float, int*) noexcept __asm__("emu_checked_remquof");
double remquo(double, double, int*) noexcept __asm__("emu_checked_remquo");
// nan's tag and printf's format and %s strings are read; printf's %n (which device printf does not have) would write
// through any pointer, past the check of what a kernel may reach: runtime/device_printf.cpp refuses it in a kernel.
float nanf(const char*) noexcept __asm__("emu_checked_nanf");
double nan(const char*) noexcept __asm__("emu_checked_nan");
int printf(const char*, ...) __asm__("emu_checked_printf");
// Device-side malloc and free (CUDA's device heap): a block a kernel allocates is memory kernels may use (a kernel
// reaches only what a GPU kernel can: runtime/kernel_reach.cpp), until it is freed.
void* malloc(size_t) noexcept __asm__("emu_checked_malloc");
void free(void*) noexcept __asm__("emu_checked_free");
}

// new and delete in a .cu file (CUDA's device heap too): inside a kernel an object is allocated on the device heap,
// which every kernel may use until it is deleted; in host code they behave as the C++ library's
// (runtime/device_new.cpp). Placement new is the library's inline one: it allocates nothing.
void* operator new(size_t) __asm__("emu_checked_new");
void* operator new[](size_t) __asm__("emu_checked_new_array");
void* operator new(size_t, std::align_val_t) __asm__("emu_checked_new_aligned");
void* operator new[](size_t, std::align_val_t) __asm__("emu_checked_new_array_aligned");
void* operator new(size_t, const std::nothrow_t&) noexcept __asm__("emu_checked_new_nothrow");
void* operator new[](size_t, const std::nothrow_t&) noexcept __asm__("emu_checked_new_array_nothrow");
void operator delete(void*) noexcept __asm__("emu_checked_delete");
void operator delete[](void*) noexcept __asm__("emu_checked_delete_array");
void operator delete(void*, size_t) noexcept __asm__("emu_checked_delete_sized");
void operator delete[](void*, size_t) noexcept __asm__("emu_checked_delete_array_sized");
void operator delete(void*, std::align_val_t) noexcept __asm__("emu_checked_delete_aligned");
void operator delete[](void*, std::align_val_t) noexcept __asm__("emu_checked_delete_array_aligned");
void operator delete(void*, size_t, std::align_val_t) noexcept __asm__("emu_checked_delete_sized_aligned");
void operator delete[](void*, size_t, std::align_val_t) noexcept __asm__("emu_checked_delete_array_sized_aligned");
void operator delete(void*, const std::nothrow_t&) noexcept __asm__("emu_checked_delete_nothrow");
void operator delete[](void*, const std::nothrow_t&) noexcept __asm__("emu_checked_delete_array_nothrow");
