// cudaHostRegister / cudaHostUnregister: page-locking memory the program allocated itself (malloc, mmap), as
// cuda-samples' simpleStreams does instead of cudaMallocHost. One memory here: nothing is locked or mapped; the
// calls keep the registered ranges so that they check their arguments as the runtime does (a range registered twice,
// an unregister of a pointer never registered) and so that cudaHostGetDevicePointer gives a registered range its
// device address (the same address, as with unified addressing on a GPU).
#include <cuda_runtime_api.h>

#include <cstdint>
#include <map>

#include "api_state.hpp"

namespace {

struct Range {
    std::uintptr_t end;
    unsigned flags;
};

std::map<std::uintptr_t, Range>& ranges() {
    static std::map<std::uintptr_t, Range> r;
    return r;
}

constexpr unsigned kKnownFlags =
    cudaHostRegisterPortable | cudaHostRegisterMapped | cudaHostRegisterIoMemory | cudaHostRegisterReadOnly;

}  // namespace

namespace emu::rt {

bool host_registered(const void* p, std::size_t bytes) {
    const ApiLock lock(api_mutex());
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    auto it = ranges().upper_bound(a);
    if (it == ranges().begin()) return false;
    --it;
    return a >= it->first && a + bytes <= it->second.end;
}

}  // namespace emu::rt

cudaError_t cudaHostRegister(void* ptr, std::size_t bytes, unsigned flags) {
    using emu::rt::record_error;
    const emu::rt::ApiLock lock(emu::rt::api_mutex());
    if (emu::rt::sticky_error() != cudaSuccess) return emu::rt::sticky_error();
    if (!ptr || bytes == 0 || (flags & ~kKnownFlags)) return record_error(cudaErrorInvalidValue);
    const auto a = reinterpret_cast<std::uintptr_t>(ptr);
    auto next = ranges().lower_bound(a);
    const bool overlaps_next = next != ranges().end() && next->first < a + bytes;
    const bool overlaps_prev = next != ranges().begin() && std::prev(next)->second.end > a;
    if (overlaps_next || overlaps_prev) return record_error(cudaErrorHostMemoryAlreadyRegistered);
    ranges()[a] = Range{a + bytes, flags};
    return cudaSuccess;
}

cudaError_t cudaHostUnregister(void* ptr) {
    using emu::rt::record_error;
    const emu::rt::ApiLock lock(emu::rt::api_mutex());
    if (emu::rt::sticky_error() != cudaSuccess) return emu::rt::sticky_error();
    // Only the pointer a range was registered with unregisters it.
    if (!ptr || !ranges().erase(reinterpret_cast<std::uintptr_t>(ptr)))
        return record_error(cudaErrorHostMemoryNotRegistered);
    return cudaSuccess;
}
