// cudaLaunchKernelEx / cudaLaunchKernelExC: a launch described by a cudaLaunchConfig_t and its attributes.
// The cooperative attribute makes it a cooperative launch (grid.sync() allowed, the grid checked against what the
// device holds at once). A cluster dimension other than 1 x 1 x 1 is refused with cudaErrorNotSupported after a
// message: thread block clusters are not emulated. The other attributes change scheduling or caching only (priority,
// programmatic serialization, access policy windows…) and are accepted as the sequential emulator already meets
// them.
#pragma once
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include <emu/launch.hpp>

enum cudaLaunchAttributeID {
    cudaLaunchAttributeIgnore = 0,
    cudaLaunchAttributeAccessPolicyWindow = 1,
    cudaLaunchAttributeCooperative = 2,
    cudaLaunchAttributeSynchronizationPolicy = 3,
    cudaLaunchAttributeClusterDimension = 4,
    cudaLaunchAttributeClusterSchedulingPolicyPreference = 5,
    cudaLaunchAttributeProgrammaticStreamSerialization = 6,
    cudaLaunchAttributeProgrammaticEvent = 7,
    cudaLaunchAttributePriority = 8,
    cudaLaunchAttributeMemSyncDomainMap = 9,
    cudaLaunchAttributeMemSyncDomain = 10,
};

// An L2 access policy window (stream and launch attribute): how a GPU's L2 should treat accesses to a range. The
// emulator has no L2 to steer; the window is checked, kept and reported back.
enum cudaAccessProperty {
    cudaAccessPropertyNormal = 0,
    cudaAccessPropertyStreaming = 1,
    cudaAccessPropertyPersisting = 2,
};
struct cudaAccessPolicyWindow {
    void* base_ptr;
    std::size_t num_bytes;
    float hitRatio;
    cudaAccessProperty hitProp;
    cudaAccessProperty missProp;
};
enum cudaSynchronizationPolicy {
    cudaSyncPolicyAuto = 1,
    cudaSyncPolicySpin = 2,
    cudaSyncPolicyYield = 3,
    cudaSyncPolicyBlockingSync = 4,
};

union cudaLaunchAttributeValue {
    char pad[64];
    cudaAccessPolicyWindow accessPolicyWindow;
    cudaSynchronizationPolicy syncPolicy;
    int cooperative;
    int priority;
    unsigned programmaticStreamSerializationAllowed;
    struct {
        unsigned x, y, z;
    } clusterDim;
};

// A stream's attributes are launch attributes under other names, as CUDA 12 defines them.
typedef cudaLaunchAttributeID cudaStreamAttrID;
typedef cudaLaunchAttributeValue cudaStreamAttrValue;
#define cudaStreamAttributeAccessPolicyWindow cudaLaunchAttributeAccessPolicyWindow
#define cudaStreamAttributeSynchronizationPolicy cudaLaunchAttributeSynchronizationPolicy
#define cudaStreamAttributePriority cudaLaunchAttributePriority
#define cudaStreamAttributeMemSyncDomainMap cudaLaunchAttributeMemSyncDomainMap
#define cudaStreamAttributeMemSyncDomain cudaLaunchAttributeMemSyncDomain
// Kept per stream and reported back; they steer caching and scheduling, which the emulator does not model
// (runtime/device_management.cpp).
cudaError_t cudaStreamSetAttribute(cudaStream_t stream, cudaStreamAttrID attr, const cudaStreamAttrValue* value);
cudaError_t cudaStreamGetAttribute(cudaStream_t stream, cudaStreamAttrID attr, cudaStreamAttrValue* value_out);

struct cudaLaunchAttribute {
    cudaLaunchAttributeID id;
    char pad[8 - sizeof(cudaLaunchAttributeID)];
    cudaLaunchAttributeValue val;
};

struct cudaLaunchConfig_t {
    dim3 gridDim;
    dim3 blockDim;
    std::size_t dynamicSmemBytes;
    cudaStream_t stream;
    cudaLaunchAttribute* attrs;
    unsigned numAttrs;
};

namespace emu::detail {

// The launch a config describes; false (and the error in *err) when an attribute asks for what is not emulated.
bool config_of(const cudaLaunchConfig_t* config, LaunchConfig* out, cudaError_t* err);  // runtime/launch.cpp

}  // namespace emu::detail

inline cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* func, void** args) {
    emu::detail::LaunchConfig cfg{};
    cudaError_t err = cudaSuccess;
    if (!emu::detail::config_of(config, &cfg, &err)) return err;
    return emu::detail::launch_untyped(func, cfg, args);
}

// The arguments are converted to the kernel's parameter types, as CUDA's template does.
template <class... P, class... A>
cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t* config, void (*kernel)(P...), A&&... args) {
    static_assert(sizeof...(P) == sizeof...(A), "cudaLaunchKernelEx: the kernel takes a different number of arguments");
    emu::detail::LaunchConfig cfg{};
    cudaError_t err = cudaSuccess;
    if (!emu::detail::config_of(config, &cfg, &err)) return err;
    std::tuple<std::decay_t<P>...> values(std::forward<A>(args)...);
    void* pointers[sizeof...(P) > 0 ? sizeof...(P) : 1];
    std::apply(
        [&](auto&... v) {
            std::size_t i = 0;
            ((pointers[i++] = static_cast<void*>(&v)), ...);
        },
        values);
    return emu::detail::launch_with_args(kernel, cfg, pointers, std::index_sequence_for<P...>{});
}
