// CUDA's clock() in device code reads the multiprocessor's cycle counter (32 bits, sign-extended to clock_t). A
// kernel here is host code, so the name resolves to the C library's clock(), the process's CPU time in microseconds:
// the samples' spin-wait kernels (concurrentKernels' clock_block, which waits 10 ms of clockRate cycles) then waited
// seconds of CPU time each (335 s for the sample's 80 ms). The program's executable defines clock() (this object comes
// from the runtime library before the C library is searched), so every call reaches this one: in a kernel thread it
// reads the emulator's counter (host nanoseconds, as clock64() and %clock do), elsewhere it is the C library's.
#include <dlfcn.h>

#include <ctime>

#include "exec.hpp"
#include <emu/intrinsics_detail.hpp>

extern "C" clock_t clock() noexcept {
    if (emu::rt::g_in_kernel) return static_cast<clock_t>(static_cast<int>(emu::detail::clock_ticks()));
    using Fn = clock_t (*)();
    static const Fn libc_clock = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, "clock"));
    return libc_clock ? libc_clock() : static_cast<clock_t>(-1);
}
