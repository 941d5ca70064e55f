// Device management beyond the basics (cuda_runtime_api.h, "device management"): limits, the cache and shared-memory
// configuration, device choice, peers, and the deprecated cudaThread* names older programs (CUDA by Example's
// cudaThreadSynchronize, cudaChooseDevice) still call. One emulated device: device 0 is the only valid id, and it
// has no peer.
#include <cstdio>
#include <cstring>
#include <map>
#include <utility>

#include <emu/launch_ex.hpp>

#include "api_state.hpp"
#include "exec.hpp"

namespace emu::rt {
namespace {

// The limits as an H200 reports them by default; a value set is reported back (the emulator's fiber stacks, device
// printf and heap do not depend on them).
std::size_t g_limits[7] = {1024, 1048576, 8388608, 2, 2048, 64, 0};
cudaFuncCache g_cache_config = cudaFuncCachePreferNone;
cudaSharedMemConfig g_shared_config = cudaSharedMemBankSizeFourByte;

std::map<std::pair<cudaStream_t, int>, cudaLaunchAttributeValue>& stream_attributes() {
    static std::map<std::pair<cudaStream_t, int>, cudaLaunchAttributeValue> m;
    return m;
}

bool valid_limit(cudaLimit limit) { return limit >= cudaLimitStackSize && limit <= cudaLimitPersistingL2CacheSize; }

}  // namespace
}  // namespace emu::rt

using emu::rt::record_error;

cudaError_t cudaDeviceSetLimit(cudaLimit limit, std::size_t value) {
    const emu::rt::ApiLock lock(emu::rt::api_mutex());
    if (!emu::rt::valid_limit(limit)) return record_error(cudaErrorUnsupportedLimit);
    emu::rt::g_limits[limit] = value;
    return cudaSuccess;
}
cudaError_t cudaDeviceGetLimit(std::size_t* value, cudaLimit limit) {
    const emu::rt::ApiLock lock(emu::rt::api_mutex());
    if (!value) return record_error(cudaErrorInvalidValue);
    if (!emu::rt::valid_limit(limit)) return record_error(cudaErrorUnsupportedLimit);
    *value = emu::rt::g_limits[limit];
    return cudaSuccess;
}
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache config) {
    if (config < cudaFuncCachePreferNone || config > cudaFuncCachePreferEqual)
        return record_error(cudaErrorInvalidValue);
    emu::rt::g_cache_config = config;
    return cudaSuccess;
}
cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache* config) {
    if (!config) return record_error(cudaErrorInvalidValue);
    *config = emu::rt::g_cache_config;
    return cudaSuccess;
}
cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig config) {
    if (config > cudaSharedMemBankSizeEightByte) return record_error(cudaErrorInvalidValue);
    emu::rt::g_shared_config = config;
    return cudaSuccess;
}
cudaError_t cudaDeviceGetSharedMemConfig(cudaSharedMemConfig* config) {
    if (!config) return record_error(cudaErrorInvalidValue);
    *config = emu::rt::g_shared_config;
    return cudaSuccess;
}

cudaError_t cudaChooseDevice(int* device, const cudaDeviceProp* prop) {
    if (!device || !prop) return record_error(cudaErrorInvalidValue);
    *device = 0;  // the only device matches best whatever is asked
    return cudaSuccess;
}
cudaError_t cudaSetValidDevices(int* devices, int count) {
    if (count < 0 || (count > 0 && !devices)) return record_error(cudaErrorInvalidValue);
    for (int i = 0; i < count; ++i)
        if (devices[i] != 0) return record_error(cudaErrorInvalidDevice);
    return cudaSuccess;
}
cudaError_t cudaInitDevice(int device, unsigned, unsigned) {
    return device == 0 ? cudaSuccess : record_error(cudaErrorInvalidDevice);
}
cudaError_t cudaDeviceGetPCIBusId(char* pci_bus_id, int len, int device) {
    if (!pci_bus_id || len <= 0) return record_error(cudaErrorInvalidValue);
    if (device != 0) return record_error(cudaErrorInvalidDevice);
    std::snprintf(pci_bus_id, static_cast<std::size_t>(len), "0000:00:00.0");
    return cudaSuccess;
}
cudaError_t cudaDeviceGetByPCIBusId(int* device, const char* pci_bus_id) {
    if (!device || !pci_bus_id) return record_error(cudaErrorInvalidValue);
    if (std::strcmp(pci_bus_id, "0000:00:00.0") != 0 && std::strcmp(pci_bus_id, "00:00.0") != 0)
        return record_error(cudaErrorInvalidDevice);
    *device = 0;
    return cudaSuccess;
}

// Peers: a device is not its own peer (CUDA answers 0 and refuses to enable access to itself), and there is no other.
cudaError_t cudaDeviceCanAccessPeer(int* can_access, int device, int peer_device) {
    if (!can_access) return record_error(cudaErrorInvalidValue);
    if (device != 0 || peer_device != 0) return record_error(cudaErrorInvalidDevice);
    *can_access = 0;
    return cudaSuccess;
}
cudaError_t cudaDeviceEnablePeerAccess(int, unsigned flags) {
    if (flags != 0) return record_error(cudaErrorInvalidValue);
    return record_error(cudaErrorInvalidDevice);
}
cudaError_t cudaDeviceDisablePeerAccess(int) { return record_error(cudaErrorInvalidDevice); }
cudaError_t cudaDeviceGetP2PAttribute(int* value, cudaDeviceP2PAttr, int src_device, int dst_device) {
    if (!value) return record_error(cudaErrorInvalidValue);
    if (src_device != 0 || dst_device != 0) return record_error(cudaErrorInvalidDevice);
    *value = 0;
    return cudaSuccess;
}
cudaError_t cudaMemcpyPeer(void* dst, int dst_device, const void* src, int src_device, std::size_t bytes) {
    if (dst_device != 0 || src_device != 0) return record_error(cudaErrorInvalidDevice);
    return cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice);
}
cudaError_t cudaMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device, std::size_t bytes,
                                cudaStream_t stream) {
    if (!emu::rt::stream_ok(stream)) return record_error(cudaErrorInvalidResourceHandle);
    return cudaMemcpyPeer(dst, dst_device, src, src_device, bytes);
}

// Pinned memory here is mapped whatever the flags of its allocation were, as on a GPU with unified addressing.
cudaError_t cudaHostGetFlags(unsigned* flags, void* host_ptr) {
    if (!flags || !host_ptr) return record_error(cudaErrorInvalidValue);
    if (!emu::rt::device_range_ok(host_ptr, 1) && !emu::rt::host_registered(host_ptr, 1))
        return record_error(cudaErrorInvalidValue);
    *flags = cudaHostAllocMapped;
    return cudaSuccess;
}
cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void* ptr, std::size_t bytes, unsigned flags) {
    if (!emu::rt::stream_ok(stream)) return record_error(cudaErrorInvalidResourceHandle);
    if (!ptr || (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost && flags != cudaMemAttachSingle))
        return record_error(cudaErrorInvalidValue);
    if (!emu::rt::device_range_ok(ptr, bytes ? bytes : 1)) return record_error(cudaErrorInvalidValue);
    return cudaSuccess;  // one memory: nothing to attach
}
cudaError_t cudaCtxResetPersistingL2Cache() { return cudaSuccess; }

cudaError_t cudaStreamSetAttribute(cudaStream_t stream, cudaStreamAttrID attr, const cudaStreamAttrValue* value) {
    const emu::rt::ApiLock lock(emu::rt::api_mutex());
    if (!emu::rt::stream_ok(stream)) return record_error(cudaErrorInvalidResourceHandle);
    if (!value) return record_error(cudaErrorInvalidValue);
    if (attr == cudaLaunchAttributeAccessPolicyWindow &&
        (value->accessPolicyWindow.hitRatio < 0.f || value->accessPolicyWindow.hitRatio > 1.f))
        return record_error(cudaErrorInvalidValue);
    emu::rt::stream_attributes()[{stream, attr}] = *value;
    return cudaSuccess;
}
cudaError_t cudaStreamGetAttribute(cudaStream_t stream, cudaStreamAttrID attr, cudaStreamAttrValue* value_out) {
    const emu::rt::ApiLock lock(emu::rt::api_mutex());
    if (!emu::rt::stream_ok(stream)) return record_error(cudaErrorInvalidResourceHandle);
    if (!value_out) return record_error(cudaErrorInvalidValue);
    const auto it = emu::rt::stream_attributes().find({stream, attr});
    if (it != emu::rt::stream_attributes().end()) {
        *value_out = it->second;
    } else {
        std::memset(value_out, 0, sizeof *value_out);
        if (attr == cudaLaunchAttributeSynchronizationPolicy) value_out->syncPolicy = cudaSyncPolicyAuto;
    }
    return cudaSuccess;
}

cudaError_t cudaThreadSynchronize() { return cudaDeviceSynchronize(); }
cudaError_t cudaThreadExit() { return cudaDeviceReset(); }
cudaError_t cudaThreadSetLimit(cudaLimit limit, std::size_t value) { return cudaDeviceSetLimit(limit, value); }
cudaError_t cudaThreadGetLimit(std::size_t* value, cudaLimit limit) { return cudaDeviceGetLimit(value, limit); }
cudaError_t cudaThreadSetCacheConfig(cudaFuncCache config) { return cudaDeviceSetCacheConfig(config); }
cudaError_t cudaThreadGetCacheConfig(cudaFuncCache* config) { return cudaDeviceGetCacheConfig(config); }
