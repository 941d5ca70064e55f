// Public API of the emulator beyond the CUDA runtime: used by the hidden-test harness and the emulator's tests.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace emu {

// Every diagnostic reported since the last call (formatted, multi-line), and clears the list.
std::vector<std::string> take_diagnostics();

// Thread order between barriers. forward: 0,1,2…; reverse: …,2,1,0; random: a permutation drawn from seed, fresh per
// block and per barrier interval. Also set by the environment variable EMU_SCHEDULE=forward|reverse|random:<seed>.
enum class Schedule { forward, reverse, random };
void set_schedule(Schedule s, std::uint64_t seed = 0);

// Memory that kernels may read and write although it is no cudaMalloc-family allocation: the one entry point for a
// library of the emulator that hands kernels memory of its own (device containers that do not allocate with
// cudaMalloc). Inside a kernel, any other address outside device memory, the __shared__ arena, the thread's own
// locals, __device__ variables and registered host memory is an illegal address (runtime/kernel_reach.cpp).
void register_device_range(const void* p, std::size_t bytes);
void unregister_device_range(const void* p);  // `p` as registered

// Called (once, at static initialization) by a program that includes Thrust: Thrust's device algorithms run on the
// host here (its CPP system), so host code may from then on read and write device memory inside its allocations
// instead of being stopped as a CPU touching GPU memory (include/thrust/system/cpp/memory_resource.h).
void allow_host_access_to_device_memory();

}  // namespace emu
