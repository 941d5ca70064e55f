// Linked into the coverage measurement's workers only (solution_coverage.py), never into a grade's: g++'s --coverage
// counters are host statics that the solutions' kernels increment, and the emulator instruments those increments
// like any other access, so its rule that a kernel reaches only what a GPU kernel can (runtime/kernel_reach.cpp)
// refuses them. The counters belong to the measurement, not to the program under test: this object lets the kernels
// of that one executable reach its static data (glibc's __data_start to the linker's _end), and nothing else.
#include <emu/api.h>

extern "C" char __data_start[], _end[];

namespace {
const bool counters_reachable =
    (emu::register_device_range(__data_start, static_cast<std::size_t>(_end - __data_start)), true);
}  // namespace
