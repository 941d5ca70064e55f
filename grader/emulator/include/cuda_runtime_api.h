// The CUDA runtime API as the emulator provides it: CUDA's names and numeric values, implemented on the CPU
// (runtime/runtime_api.cpp). Work submitted to a stream runs at once, so every call is synchronous.
#pragma once
#include <cstddef>

// The include guards and version macros of CUDA's own headers: helper headers written for nvcc test them (the
// samples' helper_cuda.h defines its error-name function under `#ifdef __DRIVER_TYPES_H__`). The version is the
// runtime the emulator reports (cudaRuntimeGetVersion).
#ifndef CUDART_VERSION
#define CUDART_VERSION 12080
#endif
#define __CUDART_API_VERSION CUDART_VERSION
#define __CUDA_RUNTIME_API_H__
#define __DRIVER_TYPES_H__
#define __DRIVER_FUNCTIONS_H__
#define __HOST_DEFINES_H__
#define __DEVICE_TYPES_H__
#define __SURFACE_TYPES_H__
#define __TEXTURE_TYPES_H__

enum cudaError {
#define EMU_CUDA_ERROR(name, value) name = value,
#include <emu/cuda_error_list.inc>
#undef EMU_CUDA_ERROR
};
typedef enum cudaError cudaError_t;

enum cudaDeviceAttr {
#define EMU_CUDA_DEVATTR(name, value) name = value,
#include <emu/cuda_devattr_list.inc>
#undef EMU_CUDA_DEVATTR
};

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4,
};

enum cudaFuncAttribute {
    cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
    cudaFuncAttributePreferredSharedMemoryCarveout = 9,
    cudaFuncAttributeMax
};

// What cudaDevAttrComputeMode and cudaDeviceProp::computeMode report (the emulated device is in the default mode);
// helper headers compare against these names.
enum cudaComputeMode {
    cudaComputeModeDefault = 0,
    cudaComputeModeExclusive = 1,
    cudaComputeModeProhibited = 2,
    cudaComputeModeExclusiveProcess = 3,
};

enum cudaFuncCache {
    cudaFuncCachePreferNone = 0,
    cudaFuncCachePreferShared = 1,
    cudaFuncCachePreferL1 = 2,
    cudaFuncCachePreferEqual = 3,
};

struct CUstream_st;
struct CUevent_st;
typedef struct CUstream_st* cudaStream_t;
typedef struct CUevent_st* cudaEvent_t;
typedef struct CUfunc_st* cudaFunction_t;  // a kernel as the driver API sees it (CUfunction)

#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
// The streams device code launches child grids into (dynamic parallelism): after the parent grid, or detached. Child
// grids run after their parent grid here whichever stream they name (runtime/launch.cpp).
#define cudaStreamTailLaunch ((cudaStream_t)0x3)
#define cudaStreamFireAndForget ((cudaStream_t)0x4)
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02
#define cudaMemAttachSingle 0x04

// Every field of CUDA 12.8's cudaDeviceProp, in its order, so that a program printing any of them (the samples'
// deviceQuery, helper headers) compiles. The values are the emulated device's (runtime_api.cpp); a feature the
// emulator does not model (textures, surfaces, PCI ids, interop) reads 0, as an absent feature reads on a GPU.
struct CUuuid_st {
    char bytes[16];
};
typedef struct CUuuid_st cudaUUID_t;
struct cudaDeviceProp {
    char name[256];
    cudaUUID_t uuid;
    char luid[8];
    unsigned int luidDeviceNodeMask;
    std::size_t totalGlobalMem;
    std::size_t sharedMemPerBlock;
    int regsPerBlock;
    int warpSize;
    std::size_t memPitch;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    int clockRate;
    std::size_t totalConstMem;
    int major;
    int minor;
    std::size_t textureAlignment;
    std::size_t texturePitchAlignment;
    int deviceOverlap;
    int multiProcessorCount;
    int kernelExecTimeoutEnabled;
    int integrated;
    int canMapHostMemory;
    int computeMode;
    int maxTexture1D;
    int maxTexture1DMipmap;
    int maxTexture1DLinear;
    int maxTexture2D[2];
    int maxTexture2DMipmap[2];
    int maxTexture2DLinear[3];
    int maxTexture2DGather[2];
    int maxTexture3D[3];
    int maxTexture3DAlt[3];
    int maxTextureCubemap;
    int maxTexture1DLayered[2];
    int maxTexture2DLayered[3];
    int maxTextureCubemapLayered[2];
    int maxSurface1D;
    int maxSurface2D[2];
    int maxSurface3D[3];
    int maxSurface1DLayered[2];
    int maxSurface2DLayered[3];
    int maxSurfaceCubemap;
    int maxSurfaceCubemapLayered[2];
    std::size_t surfaceAlignment;
    int concurrentKernels;
    int ECCEnabled;
    int pciBusID;
    int pciDeviceID;
    int pciDomainID;
    int tccDriver;
    int asyncEngineCount;
    int unifiedAddressing;
    int memoryClockRate;
    int memoryBusWidth;
    int l2CacheSize;
    int persistingL2CacheMaxSize;
    int maxThreadsPerMultiProcessor;
    int streamPrioritiesSupported;
    int globalL1CacheSupported;
    int localL1CacheSupported;
    std::size_t sharedMemPerMultiprocessor;
    int regsPerMultiprocessor;
    int managedMemory;
    int isMultiGpuBoard;
    int multiGpuBoardGroupID;
    int hostNativeAtomicSupported;
    int singleToDoublePrecisionPerfRatio;
    int pageableMemoryAccess;
    int concurrentManagedAccess;
    int computePreemptionSupported;
    int canUseHostPointerForRegisteredMem;
    int cooperativeLaunch;
    int cooperativeMultiDeviceLaunch;
    std::size_t sharedMemPerBlockOptin;
    int pageableMemoryAccessUsesHostPageTables;
    int directManagedMemAccessFromHost;
    int maxBlocksPerMultiProcessor;
    int accessPolicyMaxWindowSize;
    std::size_t reservedSharedMemPerBlock;
    int hostRegisterSupported;
    int sparseCudaArraySupported;
    int hostRegisterReadOnlySupported;
    int timelineSemaphoreInteropSupported;
    int memoryPoolsSupported;
    int gpuDirectRDMASupported;
    unsigned int gpuDirectRDMAFlushWritesOptions;
    int gpuDirectRDMAWritesOrdering;
    unsigned int memoryPoolSupportedHandleTypes;
    int deferredMappingCudaArraySupported;
    int ipcEventSupported;
    int clusterLaunch;
    int unifiedFunctionPointers;
    int reserved2[2];
    int reserved1[1];
    int reserved[60];
};

struct cudaFuncAttributes {
    std::size_t sharedSizeBytes;
    std::size_t constSizeBytes;
    std::size_t localSizeBytes;
    int maxThreadsPerBlock;
    int numRegs;
    int ptxVersion;
    int binaryVersion;
    int cacheModeCA;
    int maxDynamicSharedSizeBytes;
    int preferredShmemCarveout;
};

// ---- errors --------------------------------------------------------------------------------------------------------
cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();
const char* cudaGetErrorString(cudaError_t error);
const char* cudaGetErrorName(cudaError_t error);

// ---- device --------------------------------------------------------------------------------------------------------
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device);
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device);
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaDeviceReset();
cudaError_t cudaMemGetInfo(std::size_t* free_bytes, std::size_t* total_bytes);
cudaError_t cudaDriverGetVersion(int* version);
cudaError_t cudaRuntimeGetVersion(int* version);

// ---- memory --------------------------------------------------------------------------------------------------------
cudaError_t cudaMalloc(void** ptr, std::size_t bytes);
cudaError_t cudaMallocHost(void** ptr, std::size_t bytes);
cudaError_t cudaHostAlloc(void** ptr, std::size_t bytes, unsigned flags);
// Page-locking memory the program allocated (runtime/host_register.cpp): nothing is locked here, the ranges are kept.
#define cudaHostRegisterDefault 0x00
#define cudaHostRegisterPortable 0x01
#define cudaHostRegisterMapped 0x02
#define cudaHostRegisterIoMemory 0x04
#define cudaHostRegisterReadOnly 0x08
cudaError_t cudaHostRegister(void* ptr, std::size_t bytes, unsigned flags);
cudaError_t cudaHostUnregister(void* ptr);
cudaError_t cudaMallocManaged(void** ptr, std::size_t bytes, unsigned flags = cudaMemAttachGlobal);
cudaError_t cudaFree(void* ptr);
cudaError_t cudaFreeHost(void* ptr);
cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind,
                            cudaStream_t stream = 0);
cudaError_t cudaMemcpy2D(void* dst, std::size_t dpitch, const void* src, std::size_t spitch, std::size_t width,
                         std::size_t height, cudaMemcpyKind kind);
cudaError_t cudaMemset(void* ptr, int value, std::size_t bytes);
cudaError_t cudaMemsetAsync(void* ptr, int value, std::size_t bytes, cudaStream_t stream = 0);

// Typed conveniences CUDA declares in cuda_runtime.h.
template <class T>
inline cudaError_t cudaMalloc(T** ptr, std::size_t bytes) {
    return cudaMalloc(reinterpret_cast<void**>(ptr), bytes);
}
template <class T>
inline cudaError_t cudaMallocHost(T** ptr, std::size_t bytes) {
    return cudaMallocHost(reinterpret_cast<void**>(ptr), bytes);
}
// cuda_runtime.h's C++ overload with flags: cudaHostAlloc under the other name (the blog's CASError helper).
inline cudaError_t cudaMallocHost(void** ptr, std::size_t bytes, unsigned flags) {
    return cudaHostAlloc(ptr, bytes, flags);
}
template <class T>
inline cudaError_t cudaMallocHost(T** ptr, std::size_t bytes, unsigned flags) {
    return cudaHostAlloc(reinterpret_cast<void**>(ptr), bytes, flags);
}
template <class T>
inline cudaError_t cudaHostAlloc(T** ptr, std::size_t bytes, unsigned flags) {
    return cudaHostAlloc(reinterpret_cast<void**>(ptr), bytes, flags);
}
template <class T>
inline cudaError_t cudaMallocManaged(T** ptr, std::size_t bytes, unsigned flags = cudaMemAttachGlobal) {
    return cudaMallocManaged(reinterpret_cast<void**>(ptr), bytes, flags);
}

// __constant__ and __device__ variables are ordinary globals here; symbols are passed by reference, as in CUDA.
cudaError_t emu_memcpy_symbol(void* dst, const void* src, std::size_t bytes);
template <class T>
inline cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* src, std::size_t bytes, std::size_t offset = 0,
                                      cudaMemcpyKind = cudaMemcpyHostToDevice) {
    if (offset + bytes > sizeof(T)) return cudaErrorInvalidValue;
    return emu_memcpy_symbol(reinterpret_cast<char*>(const_cast<T*>(&symbol)) + offset, src, bytes);
}
template <class T>
inline cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, std::size_t bytes, std::size_t offset = 0,
                                        cudaMemcpyKind = cudaMemcpyDeviceToHost) {
    if (offset + bytes > sizeof(T)) return cudaErrorInvalidValue;
    return emu_memcpy_symbol(dst, reinterpret_cast<const char*>(&symbol) + offset, bytes);
}

cudaError_t cudaMallocAsync(void** ptr, std::size_t bytes, cudaStream_t stream);
cudaError_t cudaFreeAsync(void* ptr, cudaStream_t stream);
template <class T>
inline cudaError_t cudaMallocAsync(T** ptr, std::size_t bytes, cudaStream_t stream) {
    return cudaMallocAsync(reinterpret_cast<void**>(ptr), bytes, stream);
}
// Memory pools (runtime/memory_pools.cpp): the device's default pool and pools the program creates. Every allocation
// is an ordinary device allocation made at once (work is never deferred here), so a pool only keeps its attributes
// and counts the bytes allocated from it; nothing is cached or released later.
typedef struct CUmemPoolHandle_st* cudaMemPool_t;
enum cudaMemPoolAttr {
    cudaMemPoolReuseFollowEventDependencies = 0x1,
    cudaMemPoolReuseAllowOpportunistic = 0x2,
    cudaMemPoolReuseAllowInternalDependencies = 0x3,
    cudaMemPoolAttrReleaseThreshold = 0x4,
    cudaMemPoolAttrReservedMemCurrent = 0x5,
    cudaMemPoolAttrReservedMemHigh = 0x6,
    cudaMemPoolAttrUsedMemCurrent = 0x7,
    cudaMemPoolAttrUsedMemHigh = 0x8,
};
enum cudaMemAllocationType { cudaMemAllocationTypeInvalid = 0, cudaMemAllocationTypePinned = 1 };
enum cudaMemAllocationHandleType { cudaMemHandleTypeNone = 0, cudaMemHandleTypePosixFileDescriptor = 1 };
enum cudaMemLocationType { cudaMemLocationTypeInvalid = 0, cudaMemLocationTypeDevice = 1, cudaMemLocationTypeHost = 2 };
struct cudaMemLocation {
    cudaMemLocationType type;
    int id;
};
struct cudaMemPoolProps {
    cudaMemAllocationType allocType;
    cudaMemAllocationHandleType handleTypes;
    cudaMemLocation location;
    void* win32SecurityAttributes;
    std::size_t maxSize;
    unsigned short usage;
    unsigned char reserved[54];
};
cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* pool, int device);
cudaError_t cudaDeviceGetMemPool(cudaMemPool_t* pool, int device);
cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t pool);
cudaError_t cudaMemPoolCreate(cudaMemPool_t* pool, const cudaMemPoolProps* props);
cudaError_t cudaMemPoolDestroy(cudaMemPool_t pool);
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void* value);
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void* value);
cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, std::size_t min_bytes_to_keep);
cudaError_t cudaMallocFromPoolAsync(void** ptr, std::size_t bytes, cudaMemPool_t pool, cudaStream_t stream);
template <class T>
inline cudaError_t cudaMallocFromPoolAsync(T** ptr, std::size_t bytes, cudaMemPool_t pool, cudaStream_t stream) {
    return cudaMallocFromPoolAsync(reinterpret_cast<void**>(ptr), bytes, pool, stream);
}
cudaError_t cudaMemcpy2DAsync(void* dst, std::size_t dpitch, const void* src, std::size_t spitch, std::size_t width,
                              std::size_t height, cudaMemcpyKind kind, cudaStream_t stream = 0);
// Mapped pinned memory is host memory the device reads directly: the same address here.
cudaError_t cudaHostGetDevicePointer(void** device_ptr, void* host_ptr, unsigned flags);
template <class T>
inline cudaError_t cudaHostGetDevicePointer(T** device_ptr, void* host_ptr, unsigned flags) {
    return cudaHostGetDevicePointer(reinterpret_cast<void**>(device_ptr), host_ptr, flags);
}
// Managed memory's placement: the device ids CUDA reserves for the host and for none, the hints of cudaMemAdvise.
// One memory here: prefetches and hints check their arguments and move nothing.
#define cudaCpuDeviceId ((int)-1)
#define cudaInvalidDeviceId ((int)-2)
enum cudaMemoryAdvise {
    cudaMemAdviseSetReadMostly = 1,
    cudaMemAdviseUnsetReadMostly = 2,
    cudaMemAdviseSetPreferredLocation = 3,
    cudaMemAdviseUnsetPreferredLocation = 4,
    cudaMemAdviseSetAccessedBy = 5,
    cudaMemAdviseUnsetAccessedBy = 6
};
cudaError_t cudaMemPrefetchAsync(const void* ptr, std::size_t bytes, int device, cudaStream_t stream = 0);
cudaError_t cudaMemAdvise(const void* ptr, std::size_t bytes, cudaMemoryAdvise advice, int device);
template <class T>
inline cudaError_t cudaMemcpyToSymbolAsync(const T& symbol, const void* src, std::size_t bytes, std::size_t offset = 0,
                                           cudaMemcpyKind kind = cudaMemcpyHostToDevice, cudaStream_t = 0) {
    return cudaMemcpyToSymbol(symbol, src, bytes, offset, kind);
}
template <class T>
inline cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const T& symbol, std::size_t bytes, std::size_t offset = 0,
                                             cudaMemcpyKind kind = cudaMemcpyDeviceToHost, cudaStream_t = 0) {
    return cudaMemcpyFromSymbol(dst, symbol, bytes, offset, kind);
}
// The address of a __device__ variable is device memory for cudaMemcpy & co. from then on (it is registered).
void emu_register_symbol(const void* address, std::size_t bytes);
template <class T>
inline cudaError_t cudaGetSymbolAddress(void** ptr, const T& symbol) {
    if (!ptr) return cudaErrorInvalidValue;
    *ptr = const_cast<void*>(static_cast<const void*>(&symbol));
    emu_register_symbol(&symbol, sizeof(T));
    return cudaSuccess;
}
template <class T>
inline cudaError_t cudaGetSymbolSize(std::size_t* size, const T&) {
    if (!size) return cudaErrorInvalidValue;
    *size = sizeof(T);
    return cudaSuccess;
}

// ---- streams and events --------------------------------------------------------------------------------------------
cudaError_t cudaStreamCreate(cudaStream_t* stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags = 0);
cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned flags);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream = 0, unsigned flags = 0);
cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned flags, int priority);
cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest);
cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned* flags);
cudaError_t cudaStreamGetPriority(cudaStream_t stream, int* priority);
// Host work in stream order. Work runs at once here, so the function is called before the call returns (a callback
// gets the stream's status: the sticky error after a kernel fault, as in CUDA).
// The calling convention macro of CUDA's callbacks (empty outside Windows).
#define CUDART_CB
typedef void (*cudaHostFn_t)(void* user_data);
typedef void (*cudaStreamCallback_t)(cudaStream_t stream, cudaError_t status, void* user_data);
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* user_data);
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* user_data, unsigned flags);
cudaError_t cudaSetDeviceFlags(unsigned flags);
cudaError_t cudaGetDeviceFlags(unsigned* flags);
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache config);
#define cudaDeviceScheduleAuto 0x00
#define cudaDeviceScheduleSpin 0x01
#define cudaDeviceScheduleYield 0x02
#define cudaDeviceScheduleBlockingSync 0x04
#define cudaDeviceBlockingSync 0x04  // the older name, which the samples still use
#define cudaDeviceMapHost 0x08
#define cudaDeviceLmemResizeToMax 0x10

// ---- device management: limits, peers, configuration, the deprecated cudaThread* names (device_management.cpp) ---
// What older programs (CUDA by Example, the samples) and multi-GPU code call. One device: a peer is never another
// device, and the limits are kept and reported back (the emulator's stacks and printf do not depend on them).
enum cudaLimit {
    cudaLimitStackSize = 0x00,
    cudaLimitPrintfFifoSize = 0x01,
    cudaLimitMallocHeapSize = 0x02,
    cudaLimitDevRuntimeSyncDepth = 0x03,
    cudaLimitDevRuntimePendingLaunchCount = 0x04,
    cudaLimitMaxL2FetchGranularity = 0x05,
    cudaLimitPersistingL2CacheSize = 0x06,
};
enum cudaSharedMemConfig {
    cudaSharedMemBankSizeDefault = 0,
    cudaSharedMemBankSizeFourByte = 1,
    cudaSharedMemBankSizeEightByte = 2,
};
enum cudaDeviceP2PAttr {
    cudaDevP2PAttrPerformanceRank = 1,
    cudaDevP2PAttrAccessSupported = 2,
    cudaDevP2PAttrNativeAtomicSupported = 3,
    cudaDevP2PAttrCudaArrayAccessSupported = 4,
};
cudaError_t cudaDeviceSetLimit(cudaLimit limit, std::size_t value);
cudaError_t cudaDeviceGetLimit(std::size_t* value, cudaLimit limit);
cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache* config);
cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig config);
cudaError_t cudaDeviceGetSharedMemConfig(cudaSharedMemConfig* config);
cudaError_t cudaChooseDevice(int* device, const cudaDeviceProp* prop);
cudaError_t cudaSetValidDevices(int* devices, int count);
cudaError_t cudaInitDevice(int device, unsigned device_flags, unsigned flags);
cudaError_t cudaDeviceGetPCIBusId(char* pci_bus_id, int len, int device);
cudaError_t cudaDeviceGetByPCIBusId(int* device, const char* pci_bus_id);
cudaError_t cudaDeviceCanAccessPeer(int* can_access, int device, int peer_device);
cudaError_t cudaDeviceEnablePeerAccess(int peer_device, unsigned flags);
cudaError_t cudaDeviceDisablePeerAccess(int peer_device);
cudaError_t cudaDeviceGetP2PAttribute(int* value, cudaDeviceP2PAttr attr, int src_device, int dst_device);
cudaError_t cudaMemcpyPeer(void* dst, int dst_device, const void* src, int src_device, std::size_t bytes);
cudaError_t cudaMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device, std::size_t bytes,
                                cudaStream_t stream = 0);
cudaError_t cudaHostGetFlags(unsigned* flags, void* host_ptr);
cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void* ptr, std::size_t bytes = 0,
                                     unsigned flags = cudaMemAttachSingle);
cudaError_t cudaCtxResetPersistingL2Cache();
// Deprecated since CUDA 4, still declared by CUDA 12.8: the device calls under their old names.
cudaError_t cudaThreadSynchronize();
cudaError_t cudaThreadExit();
cudaError_t cudaThreadSetLimit(cudaLimit limit, std::size_t value);
cudaError_t cudaThreadGetLimit(std::size_t* value, cudaLimit limit);
cudaError_t cudaThreadSetCacheConfig(cudaFuncCache config);
cudaError_t cudaThreadGetCacheConfig(cudaFuncCache* config);
template <class T>
inline cudaError_t cudaFuncSetSharedMemConfig(T*, cudaSharedMemConfig config) {
    return config <= cudaSharedMemBankSizeEightByte ? cudaSuccess : cudaErrorInvalidValue;
}

// ---- pitched and 3D memory (pitched_memory.cpp) ----------------------------------------------------------------
// Device memory only (CUDA arrays are refused with the textures): rows padded to the device's pitch alignment, set
// and copied row by row through the same checks as cudaMemcpy2D.
struct cudaPitchedPtr {
    void* ptr;
    std::size_t pitch;
    std::size_t xsize;
    std::size_t ysize;
};
struct cudaExtent {
    std::size_t width;
    std::size_t height;
    std::size_t depth;
};
struct cudaPos {
    std::size_t x;
    std::size_t y;
    std::size_t z;
};
struct cudaArray;
struct cudaMemcpy3DParms {
    cudaArray* srcArray;
    cudaPos srcPos;
    cudaPitchedPtr srcPtr;
    cudaArray* dstArray;
    cudaPos dstPos;
    cudaPitchedPtr dstPtr;
    cudaExtent extent;
    cudaMemcpyKind kind;
};
inline cudaPitchedPtr make_cudaPitchedPtr(void* d, std::size_t p, std::size_t xsz, std::size_t ysz) {
    return cudaPitchedPtr{d, p, xsz, ysz};
}
inline cudaExtent make_cudaExtent(std::size_t w, std::size_t h, std::size_t d) { return cudaExtent{w, h, d}; }
inline cudaPos make_cudaPos(std::size_t x, std::size_t y, std::size_t z) { return cudaPos{x, y, z}; }
cudaError_t cudaMallocPitch(void** ptr, std::size_t* pitch, std::size_t width, std::size_t height);
template <class T>
inline cudaError_t cudaMallocPitch(T** ptr, std::size_t* pitch, std::size_t width, std::size_t height) {
    return cudaMallocPitch(reinterpret_cast<void**>(ptr), pitch, width, height);
}
cudaError_t cudaMemset2D(void* ptr, std::size_t pitch, int value, std::size_t width, std::size_t height);
cudaError_t cudaMemset2DAsync(void* ptr, std::size_t pitch, int value, std::size_t width, std::size_t height,
                              cudaStream_t stream = 0);
cudaError_t cudaMalloc3D(cudaPitchedPtr* pitched, cudaExtent extent);
cudaError_t cudaMemset3D(cudaPitchedPtr pitched, int value, cudaExtent extent);
cudaError_t cudaMemset3DAsync(cudaPitchedPtr pitched, int value, cudaExtent extent, cudaStream_t stream = 0);
cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms* p);
cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms* p, cudaStream_t stream = 0);

// ---- kernel attributes ---------------------------------------------------------------------------------------------
// CUDA takes the kernel's address. The emulator identifies a kernel by its name (the launch knows only the name the
// rewriter passes), so the address is resolved to its function name once, from the executable's symbols.
cudaError_t emu_func_set_attribute(const void* func, cudaFuncAttribute attr, int value);
cudaError_t emu_func_get_attributes(cudaFuncAttributes* attr, const void* func);
template <class T>
inline cudaError_t cudaFuncSetAttribute(T* func, cudaFuncAttribute attr, int value) {
    return emu_func_set_attribute(reinterpret_cast<const void*>(func), attr, value);
}
template <class T>
inline cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, T* func) {
    return emu_func_get_attributes(attr, reinterpret_cast<const void*>(func));
}
// The driver API's handle of one of the program's kernels (cuLaunchKernel takes it): its address, as the void* that
// cudaLaunchKernel takes; a launch through it finds the kernel's registration (emu/launch.hpp).
inline cudaError_t cudaGetFuncBySymbol(cudaFunction_t* f, const void* symbol) {
    if (!f || !symbol) return cudaErrorInvalidDeviceFunction;
    *f = reinterpret_cast<cudaFunction_t>(const_cast<void*>(symbol));
    return cudaSuccess;
}
template <class T>
inline cudaError_t cudaFuncSetCacheConfig(T*, cudaFuncCache) {
    return cudaSuccess;
}
// Occupancy of the emulated device (2048 threads, 32 blocks and 228 KiB of shared memory per SM), from the block size
// and dynamic shared memory alone: the emulator knows no register counts.
cudaError_t emu_occupancy(int* blocks, int block_size, std::size_t dynamic_shared);
template <class T>
inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, T*, int block_size,
                                                                 std::size_t dynamic_shared) {
    return emu_occupancy(blocks, block_size, dynamic_shared);
}
template <class T>
inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* blocks, T* func, int block_size,
                                                                          std::size_t dynamic_shared, unsigned) {
    return emu_occupancy(blocks, block_size, dynamic_shared);
}
// The block size (a multiple of 32, at most `block_size_limit`, 0 = 1024) with the most resident threads per SM,
// the largest such size on a tie, and the grid that fills the device with it.
cudaError_t emu_max_potential_block_size(int* min_grid, int* block, std::size_t dynamic_shared, int block_size_limit);
template <class T>
inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int* min_grid, int* block, T*, std::size_t dynamic_shared = 0,
                                                      int block_size_limit = 0) {
    return emu_max_potential_block_size(min_grid, block, dynamic_shared, block_size_limit);
}
cudaError_t emu_available_dynamic_smem(std::size_t* bytes, int blocks_per_sm, int block_size);
template <class T>
inline cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(std::size_t* bytes, T*, int blocks_per_sm,
                                                             int block_size) {
    return emu_available_dynamic_smem(bytes, blocks_per_sm, block_size);
}
