// The memory checker's bounds and the orders of threads and blocks are read-only to the program: a forged pointer,
// in host code too (which no hook checks), cannot empty the checked ranges or set the index order back
// (runtime/memcheck.hpp, Bounds; docs/security.md).
#include <emu/api.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>

#include "memcheck.hpp"
#include "workbook_catch.hpp"

namespace {

// Runs `write` in a child process; true when the child did not survive it.
template <class F>
bool write_faults(F write) {
    const pid_t pid = fork();
    if (pid == 0) {
        write();
        _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

}  // namespace

TEST_CASE("the checker's bounds and the orders cannot be written by the program", "[sealed]") {
    void* p = nullptr;
    REQUIRE(cudaMalloc(&p, 64) == cudaSuccess);  // the device heap (and its bounds) exist
    const auto before = static_cast<emu::Schedule>(emu::mc::g_bounds.schedule);
    const std::uint64_t before_seed = emu::mc::g_bounds.schedule_seed;
    emu::set_schedule(emu::Schedule::random, 7);
    REQUIRE(emu::mc::g_heap_lo != 0);
    REQUIRE(emu::mc::g_heap_hi > emu::mc::g_heap_lo);
    REQUIRE(emu::mc::g_bounds.schedule == static_cast<int>(emu::Schedule::random));
    auto& b = const_cast<emu::mc::Bounds&>(emu::mc::g_bounds);
    CHECK(write_faults([&] { *const_cast<volatile std::uintptr_t*>(&b.heap_hi) = b.heap_lo; }));
    CHECK(write_faults([&] { *const_cast<volatile std::uintptr_t*>(&b.arena_hi) = b.arena_lo; }));
    CHECK(write_faults([&] { *const_cast<volatile int*>(&b.schedule) = 0; }));
    CHECK(write_faults([&] { *const_cast<volatile int*>(&b.block_order) = 0; }));
    // The runtime still changes them through its own writer.
    emu::set_schedule(emu::Schedule::forward);
    CHECK(emu::mc::g_bounds.schedule == static_cast<int>(emu::Schedule::forward));
    emu::set_schedule(before, before_seed);
    cudaFree(p);
}
