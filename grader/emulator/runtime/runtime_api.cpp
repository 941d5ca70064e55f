// The CUDA runtime API on the CPU. One emulated device; work on any stream runs at once, in order, so streams and
// events only need to exist and to time things on the host clock.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <string>

#include "api_state.hpp"
#include "exec.hpp"

struct CUstream_st {
    unsigned flags = 0;
    int priority = 0;
};
struct CUevent_st {
    unsigned flags = 0;
    bool recorded = false;
    double ms = 0;  // host clock when recorded
};

namespace emu::rt {
namespace {

cudaError_t g_last = cudaSuccess;
cudaError_t g_sticky = cudaSuccess;
int g_device = 0;

std::set<cudaStream_t>& streams() {
    static std::set<cudaStream_t> s;
    return s;
}
std::set<cudaEvent_t>& events() {
    static std::set<cudaEvent_t> s;
    return s;
}
bool event_known(cudaEvent_t e) {
    const ApiLock lock(api_mutex());
    return events().count(e) != 0;
}

double now_ms() {
    using namespace std::chrono;
    return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

// Calls that touch the device fail with the sticky error once a kernel faulted.
#define EMU_CHECK_STICKY()                           \
    do {                                             \
        if (g_sticky) return record_error(g_sticky); \
    } while (0)

std::size_t host_memory_bytes() {
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page)
                                 : std::size_t{16} << 30;
}

cudaDeviceProp make_props() {
    cudaDeviceProp p{};
    std::snprintf(p.name, sizeof p.name, "CUDA CPU emulator (emu backend, emulating compute capability 9.0)");
    p.totalGlobalMem = host_memory_bytes();
    p.sharedMemPerBlock = 48 * 1024;
    p.regsPerBlock = 65536;
    p.warpSize = 32;
    p.memPitch = 2147483647;
    p.maxThreadsPerBlock = 1024;
    p.maxThreadsDim[0] = 1024;
    p.maxThreadsDim[1] = 1024;
    p.maxThreadsDim[2] = 64;
    p.maxGridSize[0] = 2147483647;
    p.maxGridSize[1] = 65535;
    p.maxGridSize[2] = 65535;
    p.clockRate = 1980000;
    p.totalConstMem = 65536;
    p.major = 9;
    p.minor = 0;
    p.textureAlignment = 512;
    p.deviceOverlap = 1;
    p.multiProcessorCount = 132;
    p.canMapHostMemory = 1;
    p.concurrentKernels = 1;
    p.asyncEngineCount = 2;
    p.unifiedAddressing = 1;
    p.memoryClockRate = 2619000;
    p.memoryBusWidth = 5120;
    p.l2CacheSize = 50 * 1024 * 1024;
    p.maxThreadsPerMultiProcessor = 2048;
    p.streamPrioritiesSupported = 1;
    p.globalL1CacheSupported = 1;
    p.localL1CacheSupported = 1;
    p.sharedMemPerMultiprocessor = 228 * 1024;
    p.regsPerMultiprocessor = 65536;
    p.managedMemory = 1;
    p.pageableMemoryAccess = 0;
    p.concurrentManagedAccess = 1;
    p.cooperativeLaunch = 1;
    p.sharedMemPerBlockOptin = 227 * 1024;
    p.maxBlocksPerMultiProcessor = 32;
    p.reservedSharedMemPerBlock = 1024;
    // The rest of CUDA 12.8's fields, as an H200 on an x86-64 host reports them where the emulator behaves alike;
    // what it does not model (textures, surfaces, clusters, interop, IPC) stays 0.
    p.texturePitchAlignment = 32;
    p.singleToDoublePrecisionPerfRatio = 2;
    p.computePreemptionSupported = 1;
    p.canUseHostPointerForRegisteredMem = 1;
    p.accessPolicyMaxWindowSize = 134213632;
    p.hostRegisterSupported = 1;
    p.hostRegisterReadOnlySupported = 1;
    p.memoryPoolsSupported = 1;
    return p;
}

const cudaDeviceProp& props() {
    static const cudaDeviceProp p = make_props();
    return p;
}

// __device__ variables whose address the program took with cudaGetSymbolAddress: start -> size.
std::map<const char*, std::size_t>& symbols() {
    static std::map<const char*, std::size_t> s;
    return s;
}
bool symbol_range_ok(const void* p, std::size_t bytes) {
    const char* c = static_cast<const char*>(p);
    auto it = symbols().upper_bound(c);
    if (it == symbols().begin()) return false;
    --it;
    return c >= it->first && c + bytes <= it->first + it->second;
}
// Device memory for the copy and set calls: an allocation, or a registered __device__ variable.
bool device_bytes_ok(const void* p, std::size_t bytes) {
    return device_range_ok(p, bytes) || symbol_range_ok(p, bytes);
}

bool valid_kind(cudaMemcpyKind k) { return k >= cudaMemcpyHostToHost && k <= cudaMemcpyDefault; }

cudaError_t copy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
    const ApiLock lock(api_mutex());
    EMU_CHECK_STICKY();
    if (!valid_kind(kind)) return record_error(cudaErrorInvalidMemcpyDirection);
    if (bytes == 0) return cudaSuccess;
    if (!dst || !src) return record_error(cudaErrorInvalidValue);
    // cudaMemcpyDefault infers the direction from the pointers: a pointer inside an allocation is a device pointer.
    const bool inferred = kind == cudaMemcpyDefault;
    const bool dst_dev =
        kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice || (inferred && device_bytes_ok(dst, 1));
    const bool src_dev =
        kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice || (inferred && device_bytes_ok(src, 1));
    if ((dst_dev && !device_bytes_ok(dst, bytes)) || (src_dev && !device_bytes_ok(src, bytes)))
        return record_error(cudaErrorInvalidValue);
    std::memmove(dst, src, bytes);
    return cudaSuccess;
}

}  // namespace

cudaError_t record_error(cudaError_t err) {
    if (err != cudaSuccess) g_last = err;
    return err;
}

void make_sticky(cudaError_t err) {
    g_sticky = err;
    g_last = err;
}

cudaError_t sticky_error() { return g_sticky; }

bool stream_ok(cudaStream_t s) {
    const ApiLock lock(api_mutex());
    return s == nullptr || s == cudaStreamLegacy || s == cudaStreamPerThread || streams().count(s) != 0;
}

}  // namespace emu::rt

using namespace emu::rt;

cudaError_t cudaGetLastError() {
    const cudaError_t e = g_last;
    if (!g_sticky) g_last = cudaSuccess;
    return e;
}
cudaError_t cudaPeekAtLastError() { return g_last; }

const char* cudaGetErrorName(cudaError_t error) {
    switch (error) {
#define EMU_CUDA_ERROR(name, value) \
    case name:                      \
        return #name;
#include <emu/cuda_error_list.inc>
#undef EMU_CUDA_ERROR
        default: return "cudaErrorUnknown";
    }
}

const char* cudaGetErrorString(cudaError_t error) {
    switch (error) {
        case cudaSuccess: return "no error";
        case cudaErrorInvalidValue: return "invalid argument";
        case cudaErrorMemoryAllocation: return "out of memory";
        case cudaErrorInvalidConfiguration: return "invalid configuration argument";
        case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
        case cudaErrorInvalidDeviceFunction: return "invalid device function";
        case cudaErrorInvalidDevice: return "invalid device ordinal";
        case cudaErrorInvalidResourceHandle: return "invalid resource handle";
        case cudaErrorNotReady: return "device not ready";
        case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
        case cudaErrorMisalignedAddress: return "misaligned address";
        case cudaErrorLaunchFailure: return "unspecified launch failure";
        case cudaErrorAssert: return "device-side assert triggered";
        case cudaErrorLaunchTimeout: return "the launch timed out and was terminated";
        case cudaErrorNotSupported: return "operation not supported";
        default: break;
    }
    // Other codes: the name, read as words ("cudaErrorNoDevice" -> "no device").
    static thread_local std::string text;
    const char* n = cudaGetErrorName(error);
    if (std::strncmp(n, "cudaError", 9) == 0) n += 9;
    text.clear();
    for (const char* c = n; *c; ++c) {
        if (*c >= 'A' && *c <= 'Z') {
            if (!text.empty()) text += ' ';
            text += static_cast<char>(*c - 'A' + 'a');
        } else {
            text += *c;
        }
    }
    return text.c_str();
}

cudaError_t cudaGetDeviceCount(int* count) {
    if (!count) return record_error(cudaErrorInvalidValue);
    *count = 1;
    return cudaSuccess;
}
cudaError_t cudaGetDevice(int* device) {
    if (!device) return record_error(cudaErrorInvalidValue);
    *device = g_device;
    return cudaSuccess;
}
cudaError_t cudaSetDevice(int device) {
    if (device != 0) return record_error(cudaErrorInvalidDevice);
    g_device = device;
    return cudaSuccess;
}
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
    if (!prop) return record_error(cudaErrorInvalidValue);
    if (device != 0) return record_error(cudaErrorInvalidDevice);
    *prop = props();
    return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
    if (!value) return record_error(cudaErrorInvalidValue);
    if (device != 0) return record_error(cudaErrorInvalidDevice);
    const cudaDeviceProp& p = props();
    switch (attr) {
        case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
        case cudaDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
        case cudaDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
        case cudaDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
        case cudaDevAttrMaxGridDimX: *value = p.maxGridSize[0]; break;
        case cudaDevAttrMaxGridDimY: *value = p.maxGridSize[1]; break;
        case cudaDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; break;
        case cudaDevAttrMaxSharedMemoryPerBlock: *value = static_cast<int>(p.sharedMemPerBlock); break;
        case cudaDevAttrTotalConstantMemory: *value = static_cast<int>(p.totalConstMem); break;
        case cudaDevAttrWarpSize: *value = p.warpSize; break;
        case cudaDevAttrMaxRegistersPerBlock: *value = p.regsPerBlock; break;
        case cudaDevAttrClockRate: *value = p.clockRate; break;
        case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
        case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
        case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
        case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
            *value = static_cast<int>(p.sharedMemPerMultiprocessor);
            break;
        case cudaDevAttrMaxRegistersPerMultiprocessor: *value = p.regsPerMultiprocessor; break;
        case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = static_cast<int>(p.sharedMemPerBlockOptin); break;
        case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
        case cudaDevAttrMaxBlocksPerMultiprocessor: *value = p.maxBlocksPerMultiProcessor; break;
        case cudaDevAttrL2CacheSize: *value = p.l2CacheSize; break;
        case cudaDevAttrMemoryClockRate: *value = p.memoryClockRate; break;
        case cudaDevAttrGlobalMemoryBusWidth: *value = p.memoryBusWidth; break;
        case cudaDevAttrManagedMemory: *value = p.managedMemory; break;
        case cudaDevAttrUnifiedAddressing: *value = p.unifiedAddressing; break;
        case cudaDevAttrConcurrentKernels: *value = p.concurrentKernels; break;
        case cudaDevAttrCooperativeLaunch: *value = p.cooperativeLaunch; break;
        case cudaDevAttrReservedSharedMemoryPerBlock: *value = static_cast<int>(p.reservedSharedMemPerBlock); break;
        // The same answers as cudaGetDeviceProperties for the fields both have.
        case cudaDevAttrMaxPitch: *value = static_cast<int>(p.memPitch); break;
        case cudaDevAttrTextureAlignment: *value = static_cast<int>(p.textureAlignment); break;
        case cudaDevAttrTexturePitchAlignment: *value = static_cast<int>(p.texturePitchAlignment); break;
        case cudaDevAttrGpuOverlap: *value = p.deviceOverlap; break;
        case cudaDevAttrComputeMode: *value = p.computeMode; break;
        case cudaDevAttrCanMapHostMemory: *value = p.canMapHostMemory; break;
        case cudaDevAttrAsyncEngineCount: *value = p.asyncEngineCount; break;
        case cudaDevAttrStreamPrioritiesSupported: *value = p.streamPrioritiesSupported; break;
        case cudaDevAttrGlobalL1CacheSupported: *value = p.globalL1CacheSupported; break;
        case cudaDevAttrLocalL1CacheSupported: *value = p.localL1CacheSupported; break;
        case cudaDevAttrSingleToDoublePrecisionPerfRatio: *value = p.singleToDoublePrecisionPerfRatio; break;
        case cudaDevAttrPageableMemoryAccess: *value = p.pageableMemoryAccess; break;
        case cudaDevAttrConcurrentManagedAccess: *value = p.concurrentManagedAccess; break;
        case cudaDevAttrComputePreemptionSupported: *value = p.computePreemptionSupported; break;
        case cudaDevAttrCanUseHostPointerForRegisteredMem: *value = p.canUseHostPointerForRegisteredMem; break;
        case cudaDevAttrMaxPersistingL2CacheSize: *value = p.persistingL2CacheMaxSize; break;
        case cudaDevAttrMaxAccessPolicyWindowSize: *value = p.accessPolicyMaxWindowSize; break;
        case cudaDevAttrHostRegisterSupported: *value = p.hostRegisterSupported; break;
        case cudaDevAttrHostRegisterReadOnlySupported: *value = p.hostRegisterReadOnlySupported; break;
        case cudaDevAttrMemoryPoolsSupported: *value = p.memoryPoolsSupported; break;
        default:
            // Features the emulator does not model (textures, PCI ids, NUMA…) read as absent.
            *value = 0;
            break;
    }
    return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize() {
    EMU_CHECK_STICKY();
    return cudaSuccess;
}
cudaError_t cudaDeviceReset() {
    g_sticky = cudaSuccess;
    g_last = cudaSuccess;
    return cudaSuccess;
}
cudaError_t cudaMemGetInfo(std::size_t* free_bytes, std::size_t* total_bytes) {
    EMU_CHECK_STICKY();
    if (!free_bytes || !total_bytes) return record_error(cudaErrorInvalidValue);
    const long avail = sysconf(_SC_AVPHYS_PAGES);
    *total_bytes = host_memory_bytes();
    *free_bytes = avail > 0 ? static_cast<std::size_t>(avail) * static_cast<std::size_t>(sysconf(_SC_PAGESIZE))
                            : *total_bytes / 2;
    return cudaSuccess;
}
cudaError_t cudaDriverGetVersion(int* version) {
    if (!version) return record_error(cudaErrorInvalidValue);
    *version = 12080;
    return cudaSuccess;
}
cudaError_t cudaRuntimeGetVersion(int* version) {
    if (!version) return record_error(cudaErrorInvalidValue);
    *version = 12080;
    return cudaSuccess;
}

// ---- memory ----------------------------------------------------------------------------------------------------

// No lock here: device_alloc takes it. A guard in this frame keeps allocate() from being inlined into cudaMalloc, and
// the extra frame then hides the program's call site from the allocation's backtrace (device_memory.cpp, site_of).
static cudaError_t allocate(void** ptr, std::size_t bytes, bool host_accessible) {
    EMU_CHECK_STICKY();
    if (!ptr) return record_error(cudaErrorInvalidValue);
    if (bytes == 0) {
        *ptr = nullptr;
        return cudaSuccess;
    }
    void* p = device_alloc(bytes, host_accessible);
    if (!p) {
        *ptr = nullptr;
        return record_error(cudaErrorMemoryAllocation);
    }
    *ptr = p;
    return cudaSuccess;
}

cudaError_t cudaMalloc(void** ptr, std::size_t bytes) { return allocate(ptr, bytes, false); }
cudaError_t cudaMallocHost(void** ptr, std::size_t bytes) { return allocate(ptr, bytes, true); }
cudaError_t cudaHostAlloc(void** ptr, std::size_t bytes, unsigned) { return allocate(ptr, bytes, true); }
cudaError_t cudaMallocManaged(void** ptr, std::size_t bytes, unsigned flags) {
    if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost) return record_error(cudaErrorInvalidValue);
    return allocate(ptr, bytes, true);
}
cudaError_t cudaFree(void* ptr) {
    const ApiLock lock(api_mutex());
    EMU_CHECK_STICKY();
    if (!ptr) return cudaSuccess;
    return device_free(ptr) ? cudaSuccess : record_error(cudaErrorInvalidValue);
}
cudaError_t cudaFreeHost(void* ptr) {
    const ApiLock lock(api_mutex());
    EMU_CHECK_STICKY();
    if (!ptr) return cudaSuccess;
    return device_free(ptr) ? cudaSuccess : record_error(cudaErrorInvalidValue);
}

cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
    return copy(dst, src, bytes, kind);
}
cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind, cudaStream_t s) {
    if (!stream_ok(s)) return record_error(cudaErrorInvalidResourceHandle);
    return copy(dst, src, bytes, kind);
}
cudaError_t cudaMemcpy2D(void* dst, std::size_t dpitch, const void* src, std::size_t spitch, std::size_t width,
                         std::size_t height, cudaMemcpyKind kind) {
    EMU_CHECK_STICKY();
    if (width > dpitch || width > spitch) return record_error(cudaErrorInvalidPitchValue);
    for (std::size_t r = 0; r < height; ++r) {
        const cudaError_t e =
            copy(static_cast<char*>(dst) + r * dpitch, static_cast<const char*>(src) + r * spitch, width, kind);
        if (e) return e;
    }
    return cudaSuccess;
}

cudaError_t cudaMemset(void* ptr, int value, std::size_t bytes) {
    const ApiLock lock(api_mutex());
    EMU_CHECK_STICKY();
    if (bytes == 0) return cudaSuccess;
    if (!ptr || !device_bytes_ok(ptr, bytes)) return record_error(cudaErrorInvalidValue);
    std::memset(ptr, value, bytes);
    return cudaSuccess;
}
cudaError_t cudaMemsetAsync(void* ptr, int value, std::size_t bytes, cudaStream_t s) {
    if (!stream_ok(s)) return record_error(cudaErrorInvalidResourceHandle);
    return cudaMemset(ptr, value, bytes);
}

cudaError_t emu_occupancy(int* blocks, int block_size, std::size_t dynamic_shared) {
    if (!blocks || block_size <= 0 || block_size > 1024) return record_error(cudaErrorInvalidValue);
    const cudaDeviceProp& p = props();
    const int warps = (block_size + 31) / 32;
    int n = std::min(p.maxBlocksPerMultiProcessor, p.maxThreadsPerMultiProcessor / (warps * 32));
    const std::size_t per_block = dynamic_shared + p.reservedSharedMemPerBlock;
    n = std::min<int>(n, static_cast<int>(p.sharedMemPerMultiprocessor / per_block));
    *blocks = n;
    return cudaSuccess;
}

void emu_register_symbol(const void* address, std::size_t bytes) {
    symbols()[static_cast<const char*>(address)] = bytes;
}

cudaError_t emu_memcpy_symbol(void* dst, const void* src, std::size_t bytes) {
    EMU_CHECK_STICKY();
    if (bytes && (!dst || !src)) return record_error(cudaErrorInvalidValue);
    std::memmove(dst, src, bytes);
    return cudaSuccess;
}

// ---- streams and events ----------------------------------------------------------------------------------------

cudaError_t cudaStreamCreate(cudaStream_t* stream) { return cudaStreamCreateWithFlags(stream, cudaStreamDefault); }
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned flags) {
    const ApiLock lock(api_mutex());
    EMU_CHECK_STICKY();
    if (!stream || flags > cudaStreamNonBlocking) return record_error(cudaErrorInvalidValue);
    auto* s = new CUstream_st{flags};
    streams().insert(s);
    *stream = s;
    return cudaSuccess;
}
cudaError_t cudaStreamDestroy(cudaStream_t stream) {
    const ApiLock lock(api_mutex());
    if (!stream || !streams().count(stream)) return record_error(cudaErrorInvalidResourceHandle);
    streams().erase(stream);
    delete stream;
    return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
    EMU_CHECK_STICKY();
    if (!stream_ok(stream)) return record_error(cudaErrorInvalidResourceHandle);
    return cudaSuccess;
}
cudaError_t cudaStreamQuery(cudaStream_t stream) { return cudaStreamSynchronize(stream); }
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned) {
    EMU_CHECK_STICKY();
    if (!stream_ok(stream) || !event || !event_known(event)) return record_error(cudaErrorInvalidResourceHandle);
    return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t* event) { return cudaEventCreateWithFlags(event, cudaEventDefault); }
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned flags) {
    const ApiLock lock(api_mutex());
    EMU_CHECK_STICKY();
    if (!event || flags > 0x07) return record_error(cudaErrorInvalidValue);
    auto* e = new CUevent_st{flags, false, 0};
    events().insert(e);
    *event = e;
    return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t event) {
    const ApiLock lock(api_mutex());
    if (!event || !event_known(event)) return record_error(cudaErrorInvalidResourceHandle);
    events().erase(event);
    delete event;
    return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
    EMU_CHECK_STICKY();
    if (!event || !event_known(event) || !stream_ok(stream)) return record_error(cudaErrorInvalidResourceHandle);
    event->recorded = true;
    event->ms = now_ms();
    return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t event) {
    EMU_CHECK_STICKY();
    if (!event || !event_known(event)) return record_error(cudaErrorInvalidResourceHandle);
    return cudaSuccess;
}
cudaError_t cudaEventQuery(cudaEvent_t event) { return cudaEventSynchronize(event); }
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
    EMU_CHECK_STICKY();
    if (!ms) return record_error(cudaErrorInvalidValue);
    if (!start || !end || !event_known(start) || !event_known(end)) {
        return record_error(cudaErrorInvalidResourceHandle);
    }
    if ((start->flags & cudaEventDisableTiming) || (end->flags & cudaEventDisableTiming))
        return record_error(cudaErrorInvalidResourceHandle);
    if (!start->recorded || !end->recorded) return record_error(cudaErrorInvalidResourceHandle);
    *ms = static_cast<float>(end->ms - start->ms);
    return cudaSuccess;
}

cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned flags) {
    if (flags > 1) return record_error(cudaErrorInvalidValue);
    return cudaEventRecord(event, stream);
}
// Priorities as an H200 reports them: 0 (least) to -5 (greatest).
cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest) {
    if (least) *least = 0;
    if (greatest) *greatest = -5;
    return cudaSuccess;
}
cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned flags, int priority) {
    const cudaError_t e = cudaStreamCreateWithFlags(stream, flags);
    if (e) return e;
    // Out-of-range priorities are clamped, as CUDA documents.
    (*stream)->priority = std::max(-5, std::min(0, priority));
    return cudaSuccess;
}
cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned* flags) {
    if (!flags) return record_error(cudaErrorInvalidValue);
    if (!stream_ok(stream)) return record_error(cudaErrorInvalidResourceHandle);
    const ApiLock lock(api_mutex());
    *flags = streams().count(stream) ? stream->flags : 0u;
    return cudaSuccess;
}
cudaError_t cudaStreamGetPriority(cudaStream_t stream, int* priority) {
    if (!priority) return record_error(cudaErrorInvalidValue);
    if (!stream_ok(stream)) return record_error(cudaErrorInvalidResourceHandle);
    const ApiLock lock(api_mutex());
    *priority = streams().count(stream) ? stream->priority : 0;
    return cudaSuccess;
}

cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* user_data) {
    EMU_CHECK_STICKY();
    if (!fn) return record_error(cudaErrorInvalidValue);
    if (!stream_ok(stream)) return record_error(cudaErrorInvalidResourceHandle);
    fn(user_data);
    return cudaSuccess;
}
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* user_data, unsigned flags) {
    if (!callback || flags != 0) return record_error(cudaErrorInvalidValue);
    if (!stream_ok(stream)) return record_error(cudaErrorInvalidResourceHandle);
    // CUDA still calls it after a fault, with the error as the status.
    callback(stream, g_sticky, user_data);
    return g_sticky ? record_error(g_sticky) : cudaSuccess;
}

namespace {
unsigned g_device_flags = 0;
}
cudaError_t cudaSetDeviceFlags(unsigned flags) {
    if (flags & ~0x1fu) return record_error(cudaErrorInvalidValue);
    g_device_flags = flags;
    return cudaSuccess;
}
cudaError_t cudaGetDeviceFlags(unsigned* flags) {
    if (!flags) return record_error(cudaErrorInvalidValue);
    *flags = g_device_flags | cudaDeviceMapHost;
    return cudaSuccess;
}

// ---- stream-ordered allocation, mapped memory, prefetch --------------------------------------------------------
cudaError_t cudaMemcpy2DAsync(void* dst, std::size_t dpitch, const void* src, std::size_t spitch, std::size_t width,
                              std::size_t height, cudaMemcpyKind kind, cudaStream_t stream) {
    if (!stream_ok(stream)) return record_error(cudaErrorInvalidResourceHandle);
    return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}
cudaError_t cudaHostGetDevicePointer(void** device_ptr, void* host_ptr, unsigned flags) {
    EMU_CHECK_STICKY();
    if (!device_ptr || flags != 0) return record_error(cudaErrorInvalidValue);
    // Only memory from cudaHostAlloc / cudaMallocHost, or registered with cudaHostRegister, has a device address.
    if (!host_ptr || !(device_range_ok(host_ptr, 1) || host_registered(host_ptr, 1)))
        return record_error(cudaErrorInvalidValue);
    *device_ptr = host_ptr;
    return cudaSuccess;
}
cudaError_t cudaMemPrefetchAsync(const void* ptr, std::size_t bytes, int device, cudaStream_t stream) {
    EMU_CHECK_STICKY();
    if (!stream_ok(stream)) return record_error(cudaErrorInvalidResourceHandle);
    if (device != 0 && device != cudaCpuDeviceId) return record_error(cudaErrorInvalidDevice);
    if (bytes && (!ptr || !device_range_ok(ptr, bytes))) return record_error(cudaErrorInvalidValue);
    return cudaSuccess;
}

cudaError_t cudaMemAdvise(const void* ptr, std::size_t bytes, cudaMemoryAdvise advice, int device) {
    EMU_CHECK_STICKY();
    if (advice < cudaMemAdviseSetReadMostly || advice > cudaMemAdviseUnsetAccessedBy)
        return record_error(cudaErrorInvalidValue);
    // The read-mostly hints ignore the device; the others name the emulated device or the host.
    const bool names_device = advice != cudaMemAdviseSetReadMostly && advice != cudaMemAdviseUnsetReadMostly;
    if (names_device && device != 0 && device != cudaCpuDeviceId) return record_error(cudaErrorInvalidDevice);
    if (!ptr || !bytes || !device_range_ok(ptr, bytes)) return record_error(cudaErrorInvalidValue);
    return cudaSuccess;
}

// ---- occupancy -----------------------------------------------------------------------------------------------
cudaError_t emu_max_potential_block_size(int* min_grid, int* block, std::size_t dynamic_shared, int limit) {
    if (!min_grid || !block) return record_error(cudaErrorInvalidValue);
    const int top = limit <= 0 || limit > 1024 ? 1024 : limit;
    int best_block = 0, best_threads = -1, best_blocks = 0;
    for (int b = 32; b <= top; b += 32) {
        int n = 0;
        if (emu_occupancy(&n, b, dynamic_shared) != cudaSuccess) continue;
        if (n * b >= best_threads) {
            best_threads = n * b;
            best_block = b;
            best_blocks = n;
        }
    }
    if (best_block == 0) return record_error(cudaErrorInvalidValue);
    *block = best_block;
    *min_grid = best_blocks * props().multiProcessorCount;
    return cudaSuccess;
}
cudaError_t emu_available_dynamic_smem(std::size_t* bytes, int blocks_per_sm, int block_size) {
    if (!bytes || blocks_per_sm <= 0 || block_size <= 0 || block_size > 1024)
        return record_error(cudaErrorInvalidValue);
    const cudaDeviceProp& p = props();
    const std::size_t per_block = p.sharedMemPerMultiprocessor / static_cast<std::size_t>(blocks_per_sm);
    const std::size_t usable = per_block > p.reservedSharedMemPerBlock ? per_block - p.reservedSharedMemPerBlock : 0;
    *bytes = std::min(usable, p.sharedMemPerBlockOptin);
    return cudaSuccess;
}
