// Included by the emulator's stand-ins for Thrust's CPP-system headers (include/thrust/…): Thrust's device algorithms
// run on the host here, over device_vector storage and over raw cudaMalloc pointers wrapped in thrust::device_ptr
// alike, so from static initialization on the emulator lets host code read and write device memory inside its
// allocations (a read past one, or after cudaFree, is still reported). docs/emulator.md, Thrust.
#pragma once
#include <emu/api.h>

namespace emu::detail {
inline const bool thrust_host_system = (emu::allow_host_access_to_device_memory(), true);
}  // namespace emu::detail
