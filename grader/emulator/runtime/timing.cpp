// clock64() for kernels: a monotonically increasing cycle-like counter (nanoseconds of the host's steady clock).
#include <emu/intrinsics_detail.hpp>

#include <chrono>

namespace emu::detail {

long long clock_ticks() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

}  // namespace emu::detail
