// The profiler for the memory checker's tests, which run memcheck.cpp on a fake engine (tests/memcheck) without the
// rest of the runtime: the profiler is off there, so the hooks memcheck.cpp calls behind its flag never run. Each
// aborts if it ever does, rather than counting nothing silently.
#include <cstdio>
#include <cstdlib>

#include "profile.hpp"

namespace emu::prof {
namespace {
[[noreturn]] void absent(const char* what) {
    std::fprintf(stderr, "emu: the profiler is not part of this test build (%s called)\n", what);
    std::abort();
}
}  // namespace

bool g_on = false;
void on_access(const void*, std::size_t, unsigned, const void*) { absent("on_access"); }
void on_launch_begin(std::size_t) { absent("on_launch_begin"); }
void on_block_begin() { absent("on_block_begin"); }
void on_barrier() { absent("on_barrier"); }
void on_collective(Coll) { absent("on_collective"); }
void on_launch_end() { absent("on_launch_end"); }

}  // namespace emu::prof
