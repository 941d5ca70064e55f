// A kernel called like a host function. nvcc rejects `kernel(args)` by name in host code, but not a call through a
// pointer or a template parameter (llm.c's benchmark_kernel(repeats, permute_kernel, …) calls what it is given). On a
// GPU such a call reaches the kernel's host stub, which finds no launch configuration and returns: nothing runs, and
// a benchmark around it times an empty loop. Here the body would run on the host thread, outside any launch, and
// fail on its first device-memory access; instead the emulator does what the GPU does, runs nothing, and says so
// once per kernel, naming the call.
#include <cstdio>
#include <set>
#include <string>

#include "exec.hpp"

namespace emu::detail {

bool kernel_body_entered(const char* name, const void* caller) {
    if (rt::g_in_kernel) return true;
    static std::set<std::string> reported;
    if (reported.insert(name).second) {
        // The return address is the instruction after the call: one byte back is inside the call, on its line.
        const std::string at = rt::symbolize(static_cast<const char*>(caller) - 1);
        rt::report({"unlaunched-kernel",
                    "kernel " + std::string(name) + " was called like a host function, without <<<…>>>, at " + at +
                        "\n    on a GPU this call launches nothing (the kernel's host stub finds no launch "
                        "configuration and returns), so no thread runs and a time measured around it is not the "
                        "kernel's; the emulator runs nothing either\n    hint: launch it with " +
                        name + "<<<grid, block>>>(…), or pass a host function that launches it",
                    rt::Severity::warning});
        std::fflush(stderr);
    }
    return false;
}

}  // namespace emu::detail
