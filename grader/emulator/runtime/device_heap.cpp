// CUDA's device heap: the blocks a kernel allocates with malloc or new, which every kernel may use until a kernel
// frees them. Here a block comes from the C library and is registered as device memory (kernel_reach.cpp) while it
// lives. Both ways in, malloc/free (emu_checked_malloc, emu_checked_free: the assembler names emu/checked_libc.hpp
// gives them in every .cu file) and new/delete (device_new.cpp), keep their blocks in the one table below, so that a
// kernel's free or delete accepts exactly the blocks the device heap handed out: a GPU's free of anything else (a
// host pointer, a cudaMalloc'd pointer, an address forged from an integer, a block freed twice) is an error, and here
// it would otherwise be the C library's free of host memory (docs/security.md, "Session 10's red team"). Host code
// keeps the C library's behaviour.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <set>
#include <string>

#include <emu/api.h>

#include "device_heap.hpp"
#include "exec.hpp"
#include "memcheck.hpp"

namespace emu::rt {
namespace {

std::mutex g_heap_mutex;
// The live blocks of the device heap, by start address. A function-local pointer, never destroyed: a program's
// static destructors may still free after this file's would have run.
std::set<std::uintptr_t>& blocks() {
    static auto* s = new std::set<std::uintptr_t>;
    return *s;
}

}  // namespace

void* c_library_block(std::size_t n, std::size_t align) {
    if (n == 0) n = 1;
    return align > alignof(std::max_align_t) ? std::aligned_alloc(align, (n + align - 1) / align * align)
                                             : std::malloc(n);
}

void* device_heap_alloc(std::size_t n, std::size_t align) {
    if (n == 0) n = 1;
    void* p = c_library_block(n, align);
    if (!p) return nullptr;  // CUDA's device malloc and nothrow new return null when the heap is full
    {
        const std::lock_guard<std::mutex> lock(g_heap_mutex);
        blocks().insert(reinterpret_cast<std::uintptr_t>(p));
    }
    emu::register_device_range(p, n);
    return p;
}

bool device_heap_release(void* p) {
    {
        const std::lock_guard<std::mutex> lock(g_heap_mutex);
        if (blocks().erase(reinterpret_cast<std::uintptr_t>(p)) == 0) return false;
    }
    emu::unregister_device_range(p);
    std::free(p);
    return true;
}

void device_heap_free(void* p, const char* how, const void* pc) {
    if (device_heap_release(p)) return;
    const ThreadInfo& t = current_thread();
    mc::fatal("invalid-free",
              std::string("Invalid ") + how + " of address " + mc::address_hex(reinterpret_cast<std::uintptr_t>(p)) +
                  "\n    at " + mc::where(pc) + " in kernel " + kernel_name() + "\n    by thread " +
                  mc::dim_str(t.thread) + " in block " + mc::dim_str(t.block) +
                  "\n    The address is not a block that malloc or new allocated inside a kernel and that is still "
                  "allocated: a kernel may free only the device heap's own blocks, once each (memory from cudaMalloc "
                  "is freed by the host with cudaFree)",
              700 /* cudaErrorIllegalAddress */);
}

void host_heap_free(void* p) {
    if (!device_heap_release(p)) std::free(p);
}

}  // namespace emu::rt

// malloc and free in a .cu file (emu/checked_libc.hpp).
extern "C" {
void* emu_checked_malloc(unsigned long n) {
    return emu::rt::g_in_kernel ? emu::rt::device_heap_alloc(n, alignof(std::max_align_t)) : std::malloc(n);
}
void emu_checked_free(void* p) {
    if (!p) return;
    if (emu::rt::g_in_kernel) emu::rt::device_heap_free(p, "free()", __builtin_return_address(0));
    else emu::rt::host_heap_free(p);
}
}
