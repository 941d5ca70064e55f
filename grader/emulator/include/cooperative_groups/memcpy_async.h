// cg::memcpy_async and cg::wait / cg::wait_prior: a copy from global to shared memory (or any two buffers) made by a
// whole group, each member moving its share (an equal slice by thread rank), and the group's wait for it, which
// ends with the group's sync() as CUDA's does. Every member must make the same call with the same arguments.
#pragma once
#include <cooperative_groups.h>
#include <emu/async_copy.hpp>

namespace cooperative_groups {

namespace details {
template <class G>
__attribute__((noinline)) void group_copy(const G& g, void* dst, const void* src, std::size_t bytes, const void* pc) {
    const std::size_t n = static_cast<std::size_t>(g.num_threads());
    const std::size_t r = static_cast<std::size_t>(g.thread_rank());
    const std::size_t share = (bytes + n - 1) / n;
    const std::size_t begin = r * share < bytes ? r * share : bytes;
    const std::size_t end = begin + share < bytes ? begin + share : bytes;
    if (end > begin)
        emu::detail::async_copy(static_cast<char*>(dst) + begin, static_cast<const char*>(src) + begin, end - begin,
                                pc);
    emu::detail::async_commit();  // each group copy is a stage of its own (what wait_prior counts)
}
}  // namespace details

// Not inlined: __builtin_return_address(0) is then the caller's line, where a bad copy is reported.
template <class G, class Size>
__attribute__((noinline)) void memcpy_async(const G& g, void* dst, const void* src, Size bytes) {
    details::group_copy(g, dst, src, emu::detail::size_of(bytes), __builtin_return_address(0));
}

// The typed form copies min(dst_count, src_count) elements.
template <class G, class T>
__attribute__((noinline)) void memcpy_async(const G& g, T* dst, std::size_t dst_count, const T* src,
                                            std::size_t src_count) {
    const std::size_t count = dst_count < src_count ? dst_count : src_count;
    details::group_copy(g, dst, src, count * sizeof(T), __builtin_return_address(0));
}

template <class G>
void wait(const G& g, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    emu::detail::async_wait_prior(0);
    g.sync(file, line);
}

template <unsigned N, class G>
void wait_prior(const G& g, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    emu::detail::async_wait_prior(N);
    g.sync(file, line);
}

}  // namespace cooperative_groups
