// CUDA's device heap (device_heap.cpp): the one table of blocks a kernel allocated with malloc or new, for both ways
// in (emu_checked_malloc/free there, the operators new and delete of device_new.cpp).
#pragma once

#include <cstddef>

namespace emu::rt {

// A block of `n` bytes (at least 1) aligned to `align`, from the C library: host allocations and the device heap's.
void* c_library_block(std::size_t n, std::size_t align);

// Inside a kernel: a block of the device heap, registered as device memory while it lives; null when none is left.
void* device_heap_alloc(std::size_t n, std::size_t align);
// Inside a kernel: frees a block of the device heap; anything else (called from `pc`, by `how`: "free()", "delete")
// ends the launch as an invalid free.
void device_heap_free(void* p, const char* how, const void* pc);
// In host code: the C library's free, a device heap block forgotten by the heap first.
void host_heap_free(void* p);

}  // namespace emu::rt
