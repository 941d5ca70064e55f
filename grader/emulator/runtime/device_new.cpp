// new and delete in a .cu file. CUDA gives device code operator new and delete on its device heap (the heap
// device-side malloc uses), so an object a kernel creates with `new` is memory every kernel may use until it is
// deleted. Here a kernel's thread runs in the host process, and the C++ library's operator new hands out host memory,
// which a kernel may not reach (kernel_reach.cpp). emu/checked_libc.hpp therefore gives the global allocation and
// deallocation functions, in every .cu file emu-nvcc compiles, the assembler names of the versions below: inside a
// kernel a block comes from the device heap (device_heap.cpp, the same table as a kernel's malloc), and a kernel's
// delete accepts only such a block; host code gets the C++ library's behaviour. Only new-expressions of the program's
// .cu files come here: the emulator's runtime, the C++ library and .cpp files call the library's operator new, so the
// runtime's own allocations during a kernel are never made reachable.
#include <cstddef>
#include <cstdlib>
#include <new>

#include "device_heap.hpp"
#include "exec.hpp"

namespace {

// nothrow: CUDA's device new returns null when the device heap is full (device code has no exceptions).
void* checked_new(std::size_t n, std::size_t align, bool nothrow) {
    if (emu::rt::g_in_kernel) return emu::rt::device_heap_alloc(n, align);
    for (;;) {
        if (void* p = emu::rt::c_library_block(n, align)) return p;
        std::new_handler handler = std::get_new_handler();
        if (!handler) {
            if (nothrow) return nullptr;
            throw std::bad_alloc();
        }
        handler();
    }
}

void checked_delete(void* p, const void* pc) {
    if (!p) return;
    if (emu::rt::g_in_kernel) emu::rt::device_heap_free(p, "delete", pc);
    else emu::rt::host_heap_free(p);
}

constexpr std::size_t kPlain = alignof(std::max_align_t);

}  // namespace

// The names emu/checked_libc.hpp gives the global allocation functions (one per signature).
extern "C" {
void* emu_checked_new(std::size_t n) { return checked_new(n, kPlain, false); }
void* emu_checked_new_array(std::size_t n) { return checked_new(n, kPlain, false); }
void* emu_checked_new_aligned(std::size_t n, std::align_val_t a) {
    return checked_new(n, static_cast<std::size_t>(a), false);
}
void* emu_checked_new_array_aligned(std::size_t n, std::align_val_t a) {
    return checked_new(n, static_cast<std::size_t>(a), false);
}
void* emu_checked_new_nothrow(std::size_t n, const std::nothrow_t&) noexcept {
    try {
        return checked_new(n, kPlain, true);
    } catch (...) {  // a new_handler that throws
        return nullptr;
    }
}
void* emu_checked_new_array_nothrow(std::size_t n, const std::nothrow_t& t) noexcept {
    return emu_checked_new_nothrow(n, t);
}
void emu_checked_delete(void* p) noexcept { checked_delete(p, __builtin_return_address(0)); }
void emu_checked_delete_array(void* p) noexcept { checked_delete(p, __builtin_return_address(0)); }
void emu_checked_delete_sized(void* p, std::size_t) noexcept { checked_delete(p, __builtin_return_address(0)); }
void emu_checked_delete_array_sized(void* p, std::size_t) noexcept { checked_delete(p, __builtin_return_address(0)); }
void emu_checked_delete_aligned(void* p, std::align_val_t) noexcept { checked_delete(p, __builtin_return_address(0)); }
void emu_checked_delete_array_aligned(void* p, std::align_val_t) noexcept {
    checked_delete(p, __builtin_return_address(0));
}
void emu_checked_delete_sized_aligned(void* p, std::size_t, std::align_val_t) noexcept {
    checked_delete(p, __builtin_return_address(0));
}
void emu_checked_delete_array_sized_aligned(void* p, std::size_t, std::align_val_t) noexcept {
    checked_delete(p, __builtin_return_address(0));
}
void emu_checked_delete_nothrow(void* p, const std::nothrow_t&) noexcept {
    checked_delete(p, __builtin_return_address(0));
}
void emu_checked_delete_array_nothrow(void* p, const std::nothrow_t&) noexcept {
    checked_delete(p, __builtin_return_address(0));
}
}
