// The pipeline primitives: __pipeline_memcpy_async (4, 8 or 16 bytes), __pipeline_commit, __pipeline_wait_prior.
// The same per-thread stages as cuda::pipeline (emu/async_copy.hpp).
#pragma once
#include <cstddef>

#include <emu/async_copy.hpp>

// The last `zfill` bytes of the destination are filled with zeros instead of copied.
__attribute__((noinline)) inline void __pipeline_memcpy_async(void* dst, const void* src, std::size_t size,
                                                              std::size_t zfill = 0) {
    const std::size_t copied = zfill < size ? size - zfill : 0;
    emu::detail::async_copy(dst, src, copied, __builtin_return_address(0));
    if (size > copied)
        emu::detail::async_copy(static_cast<char*>(dst) + copied, nullptr, size - copied, __builtin_return_address(0));
}
inline void __pipeline_commit() { emu::detail::async_commit(); }
inline void __pipeline_wait_prior(std::size_t prior) { emu::detail::async_wait_prior(static_cast<unsigned>(prior)); }
