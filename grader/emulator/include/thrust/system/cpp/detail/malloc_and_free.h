// thrust::malloc and thrust::free for Thrust's CPP system, the device system under the emulator (see
// thrust/system/cpp/memory_resource.h beside this folder). As in Thrust, the CPP system inherits the sequential
// system's (its execution_policy derives from sequential's), and the emulator's sequential version takes them from the
// device heap (cudaMalloc: thrust/system/detail/sequential/malloc_and_free.h), so thrust::device_malloc,
// thrust::device_new and Thrust's temporary buffers are memory a kernel may be handed. This header stands in front of
// Thrust's own only to let Thrust's host-run algorithms touch that memory (emu/thrust_host_system.hpp).
#pragma once

#include <thrust/detail/config.h>

#include <thrust/system/detail/sequential/malloc_and_free.h>

#include <emu/thrust_host_system.hpp>
