// assert() inside a kernel: as on a GPU, the failing thread prints the assertion with its block and thread, and the
// launch ends with cudaErrorAssert (sticky). Outside kernels, assert behaves as the C library's.
// This replaces glibc's __assert_fail for the whole program: the linker takes it from this library first.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "engine.hpp"

extern "C" [[noreturn]] void __assert_fail(const char* assertion, const char* file, unsigned int line,
                                           const char* function) noexcept {
    using namespace emu::rt;
    if (!g_in_kernel) {
        std::fprintf(stderr, "%s:%u: %s: Assertion `%s' failed.\n", file, line, function, assertion);
        std::fflush(stderr);
        std::abort();
    }
    const Thread& t = *g_engine.cur;
    fail_launch("assert",
                std::string(file) + ":" + std::to_string(line) + ": " + function + ": block: " + block_coords() +
                    ", thread: " + thread_coords(t) + " Assertion `" + assertion + "` failed.\n    in kernel " +
                    g_engine.name,
                cudaErrorAssert);
    std::abort();
}
