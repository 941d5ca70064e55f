// Thrust's memory resource for its CPP system, which is Thrust's device system under the emulator (emu-nvcc defines
// THRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_CPP; docs/emulator.md, Thrust). This header stands in front of Thrust's
// own (the emulator's include folder comes first): a thrust::device_vector's storage comes from the emulator's
// cudaMalloc, as it comes from the real one on a GPU, so its raw pointer (thrust::raw_pointer_cast) lies in the
// emulated device heap, where a kernel may use it and the memory checker sees its bounds; Thrust's algorithms, which
// run on the host here, may read and write it (emu/thrust_host_system.hpp). Thrust's own version is new/delete,
// memory a kernel may not touch.
#pragma once

#include <thrust/detail/config.h>
#include <thrust/mr/fancy_pointer_resource.h>
#include <thrust/mr/memory_resource.h>
#include <thrust/system/cpp/pointer.h>
#include <thrust/system/detail/bad_alloc.h>

#include <cuda_runtime_api.h>
#include <emu/thrust_host_system.hpp>

THRUST_NAMESPACE_BEGIN
namespace system {
namespace cpp {

namespace detail {

class emulated_device_resource final : public thrust::mr::memory_resource<> {
 public:
    void* do_allocate(std::size_t bytes, std::size_t /*alignment: the heap aligns to 256 bytes*/) override {
        void* p = nullptr;
        if (cudaMalloc(&p, bytes ? bytes : 1) != cudaSuccess)
            throw thrust::system::detail::bad_alloc(cudaGetErrorString(cudaErrorMemoryAllocation));
        return p;
    }
    void do_deallocate(void* p, std::size_t, std::size_t) override { cudaFree(p); }
};

typedef thrust::mr::fancy_pointer_resource<emulated_device_resource, thrust::cpp::pointer<void>> native_resource;
typedef thrust::mr::fancy_pointer_resource<emulated_device_resource, thrust::cpp::universal_pointer<void>>
    universal_native_resource;

}  // namespace detail

typedef detail::native_resource memory_resource;
typedef detail::universal_native_resource universal_memory_resource;
typedef detail::native_resource universal_host_pinned_memory_resource;

}  // namespace cpp
}  // namespace system
THRUST_NAMESPACE_END
