// The queues behind memcpy_async (include/emu/async_copy.hpp): each thread's copies, in stages, made by the thread
// itself when it waits for them, through the memory checker at the issuing line.
#include <emu/async_copy.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "engine.hpp"
#include "memcheck.hpp"

namespace emu::rt {

void complete_async_copies(Thread& t, std::uint32_t stage) {
    std::size_t done = 0;
    while (done < t.copies.size() && t.copies[done].stage <= stage) {
        const AsyncCopy c = t.copies[done++];
        // Read, then write, each checked at the memcpy_async's line; a fault ends the launch there.
        if (c.src) mc::access(c.src, c.bytes, 0, c.pc);
        mc::access(c.dst, c.bytes, mc::kWrite, c.pc);
        if (c.src) std::memmove(c.dst, c.src, c.bytes);
        else std::memset(c.dst, 0, c.bytes);
    }
    t.copies.erase(t.copies.begin(), t.copies.begin() + static_cast<std::ptrdiff_t>(done));
}

namespace {
Thread& running(const char* what) {
    if (!g_in_kernel) {
        std::fprintf(stderr, "emu: %s called outside a kernel\n", what);
        std::abort();
    }
    return *g_engine.cur;
}
}  // namespace

}  // namespace emu::rt

namespace emu::detail {

void async_copy(void* dst, const void* src, std::size_t bytes, const void* pc) {
    rt::Thread& t = rt::running("memcpy_async");
    if (bytes) t.copies.push_back(rt::AsyncCopy{dst, src, bytes, pc, t.committed + 1});
}

void async_commit() { ++rt::running("a pipeline commit").committed; }

void async_wait_prior(unsigned keep) {
    rt::Thread& t = rt::running("a wait for memcpy_async");
    if (t.committed > keep) rt::complete_async_copies(t, t.committed - keep);
}

void async_consumer_wait() {
    rt::Thread& t = rt::running("pipeline::consumer_wait");
    rt::complete_async_copies(t, t.released + 1);
}

void async_consumer_release() { ++rt::running("pipeline::consumer_release").released; }

}  // namespace emu::detail
