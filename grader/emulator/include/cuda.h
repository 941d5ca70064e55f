// The driver API's header. The emulator implements the driver API's common calls through its runtime API
// (emu/driver_api.hpp: initialization, devices, the primary context, memory, copies, streams, events, and
// cuLaunchKernel of the program's own kernels); loading a module (PTX, cubin, fatbin) fails at run time with one
// sentence, since a module is GPU code. The calls it does not implement (graphs, arrays, texture and surface objects,
// virtual memory, IPC, linking, libraries, …) are declared as templates that g++ refuses where they are called, with
// one sentence that names the function, at its file:line (as keywords.hpp refuses thread block clusters).
#pragma once
#define CUDA_VERSION 12080
// cuda-samples' helper_cuda.h defines its CUresult overloads (cuGetErrorName) when this is defined.
#define __cuda_cuda_h__
#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>  // cuLaunchKernel is cudaLaunchKernel (emu/launch.hpp)

typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st* CUcontext;
typedef struct CUmod_st* CUmodule;
typedef struct CUfunc_st* CUfunction;  // the same type as cudaFunction_t, as in CUDA
typedef struct CUlinkState_st* CUlinkState;
typedef struct CUstream_st* CUstream;  // the same type as cudaStream_t, as in CUDA
typedef struct CUevent_st* CUevent;    // and cudaEvent_t
typedef struct CUctxCreateParams_st CUctxCreateParams;
typedef enum CUjit_option_enum { CU_JIT_MAX_REGISTERS = 0, CU_JIT_THREADS_PER_BLOCK = 1 } CUjit_option;
typedef enum cudaError_enum {
    CUDA_SUCCESS = 0,
    CUDA_ERROR_INVALID_VALUE = 1,
    CUDA_ERROR_OUT_OF_MEMORY = 2,
    CUDA_ERROR_NOT_INITIALIZED = 3,
    CUDA_ERROR_DEINITIALIZED = 4,
    CUDA_ERROR_NO_DEVICE = 100,
    CUDA_ERROR_INVALID_DEVICE = 101,
    CUDA_ERROR_INVALID_IMAGE = 200,
    CUDA_ERROR_INVALID_CONTEXT = 201,
    CUDA_ERROR_FILE_NOT_FOUND = 301,
    CUDA_ERROR_INVALID_HANDLE = 400,
    CUDA_ERROR_NOT_FOUND = 500,
    CUDA_ERROR_NOT_READY = 600,
    CUDA_ERROR_ILLEGAL_ADDRESS = 700,
    CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
    CUDA_ERROR_LAUNCH_FAILED = 719,
    CUDA_ERROR_NOT_SUPPORTED = 801,
    CUDA_ERROR_UNKNOWN = 999
} CUresult;
// The attributes programs query most; the numbers are CUDA's, the same as cudaDeviceAttr's.
typedef enum CUdevice_attribute_enum {
    CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
    CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2,
    CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y = 3,
    CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z = 4,
    CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5,
    CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y = 6,
    CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z = 7,
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8,
    CU_DEVICE_ATTRIBUTE_SHARED_MEMORY_PER_BLOCK = 8,
    CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY = 9,
    CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10,
    CU_DEVICE_ATTRIBUTE_MAX_PITCH = 11,
    CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK = 12,
    CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13,
    CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT = 14,
    CU_DEVICE_ATTRIBUTE_GPU_OVERLAP = 15,
    CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
    CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT = 17,
    CU_DEVICE_ATTRIBUTE_INTEGRATED = 18,
    CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY = 19,
    CU_DEVICE_ATTRIBUTE_COMPUTE_MODE = 20,
    CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS = 31,
    CU_DEVICE_ATTRIBUTE_ECC_ENABLED = 32,
    CU_DEVICE_ATTRIBUTE_PCI_BUS_ID = 33,
    CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID = 34,
    CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36,
    CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 37,
    CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38,
    CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR = 39,
    CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT = 40,
    CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING = 41,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR = 81,
    CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR = 82,
    CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY = 83,
    CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH = 95,
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97
} CUdevice_attribute;
#define CU_CTX_SCHED_AUTO 0x00
#define CU_CTX_SCHED_SPIN 0x01
#define CU_CTX_SCHED_YIELD 0x02
#define CU_CTX_SCHED_BLOCKING_SYNC 0x04
#define CU_CTX_MAP_HOST 0x08
#define CU_STREAM_DEFAULT 0x0
#define CU_STREAM_NON_BLOCKING 0x1
#define CU_EVENT_DEFAULT 0x0
#define CU_EVENT_BLOCKING_SYNC 0x1
#define CU_EVENT_DISABLE_TIMING 0x2
#define CU_MEMHOSTALLOC_PORTABLE 0x01
#define CU_MEMHOSTALLOC_DEVICEMAP 0x02
#define CU_MEMHOSTALLOC_WRITECOMBINED 0x04
#define CU_MEM_ATTACH_GLOBAL 0x1
#define CU_MEM_ATTACH_HOST 0x2

// The allocation of the emulated device heap that holds `p` (runtime/device_memory.cpp): cuMemGetAddressRange.
bool emu_device_allocation_range(const void* p, void** base, std::size_t* bytes);
#include <emu/driver_api.hpp>

// The calls not implemented: templates over any arguments, so that every call reaches its refusal whatever it passes.
// The common ones are listed; in a .cu file the rewriter refuses any other `cuXxx(` call nothing declared (refused_names.hpp).
#define EMU_DRIVER_API(name)                                                                                       \
    template <class... Args>                                                                                       \
    CUresult name(Args&&...) __attribute__((                                                                       \
        error("the CUDA driver API (" #name ") is not emulated by the CPU emulator, which implements the runtime " \
              "API and the driver API's common calls only (devices, contexts, memory, streams, events, "           \
              "cuLaunchKernel): use those or the runtime API instead, or run this program on a GPU")))
EMU_DRIVER_API(cuGetProcAddress);
EMU_DRIVER_API(cuLinkCreate);
EMU_DRIVER_API(cuLinkAddData);
EMU_DRIVER_API(cuLinkAddFile);
EMU_DRIVER_API(cuLinkComplete);
EMU_DRIVER_API(cuLinkDestroy);
EMU_DRIVER_API(cuFuncGetAttribute);
EMU_DRIVER_API(cuFuncSetAttribute);
EMU_DRIVER_API(cuPointerGetAttribute);
EMU_DRIVER_API(cuMemHostRegister);
EMU_DRIVER_API(cuMemHostUnregister);
EMU_DRIVER_API(cuMemcpy2D);
EMU_DRIVER_API(cuMemAddressReserve);
EMU_DRIVER_API(cuMemAddressFree);
EMU_DRIVER_API(cuMemCreate);
EMU_DRIVER_API(cuMemRelease);
EMU_DRIVER_API(cuMemMap);
EMU_DRIVER_API(cuMemUnmap);
EMU_DRIVER_API(cuMemSetAccess);
EMU_DRIVER_API(cuMemGetAllocationGranularity);
EMU_DRIVER_API(cuMemsetD2D8);
EMU_DRIVER_API(cuMemsetD2D16);
EMU_DRIVER_API(cuMemsetD2D32);
EMU_DRIVER_API(cuMemcpy3D);
EMU_DRIVER_API(cuMemcpyPeer);
EMU_DRIVER_API(cuMemcpy2DAsync);
EMU_DRIVER_API(cuMemcpy3DAsync);
EMU_DRIVER_API(cuMemcpyPeerAsync);
EMU_DRIVER_API(cuMemPrefetchAsync);
EMU_DRIVER_API(cuMemAdvise);
EMU_DRIVER_API(cuMemAllocAsync);
EMU_DRIVER_API(cuMemFreeAsync);
EMU_DRIVER_API(cuMemHostGetFlags);
EMU_DRIVER_API(cuMemExportToShareableHandle);
EMU_DRIVER_API(cuMemImportFromShareableHandle);
EMU_DRIVER_API(cuMemRetainAllocationHandle);
EMU_DRIVER_API(cuMemGetAllocationPropertiesFromHandle);
EMU_DRIVER_API(cuMemPoolCreate);
EMU_DRIVER_API(cuMemPoolDestroy);
EMU_DRIVER_API(cuMemAllocFromPoolAsync);
EMU_DRIVER_API(cuPointerGetAttributes);
EMU_DRIVER_API(cuPointerSetAttribute);
EMU_DRIVER_API(cuCtxGetApiVersion);
EMU_DRIVER_API(cuCtxGetFlags);
EMU_DRIVER_API(cuCtxSetLimit);
EMU_DRIVER_API(cuCtxGetLimit);
EMU_DRIVER_API(cuCtxEnablePeerAccess);
EMU_DRIVER_API(cuCtxDisablePeerAccess);
EMU_DRIVER_API(cuCtxGetStreamPriorityRange);
EMU_DRIVER_API(cuDevicePrimaryCtxReset);
EMU_DRIVER_API(cuDevicePrimaryCtxSetFlags);
EMU_DRIVER_API(cuDevicePrimaryCtxGetState);
EMU_DRIVER_API(cuDeviceCanAccessPeer);
EMU_DRIVER_API(cuDeviceGetUuid);
EMU_DRIVER_API(cuDeviceGetPCIBusId);
EMU_DRIVER_API(cuDeviceGetByPCIBusId);
EMU_DRIVER_API(cuDeviceGetP2PAttribute);
EMU_DRIVER_API(cuDeviceGetDefaultMemPool);
EMU_DRIVER_API(cuLibraryLoadData);
EMU_DRIVER_API(cuLibraryLoadFromFile);
EMU_DRIVER_API(cuLibraryGetKernel);
EMU_DRIVER_API(cuLibraryUnload);
EMU_DRIVER_API(cuKernelGetFunction);
EMU_DRIVER_API(cuLaunchKernelEx);
EMU_DRIVER_API(cuLaunchHostFunc);
EMU_DRIVER_API(cuFuncGetName);
EMU_DRIVER_API(cuOccupancyMaxPotentialBlockSize);
EMU_DRIVER_API(cuStreamCreateWithPriority);
EMU_DRIVER_API(cuStreamAddCallback);
EMU_DRIVER_API(cuStreamBeginCapture);
EMU_DRIVER_API(cuStreamEndCapture);
EMU_DRIVER_API(cuStreamGetCaptureInfo);
EMU_DRIVER_API(cuStreamAttachMemAsync);
EMU_DRIVER_API(cuStreamWriteValue32);
EMU_DRIVER_API(cuStreamWaitValue32);
EMU_DRIVER_API(cuStreamGetPriority);
EMU_DRIVER_API(cuStreamGetFlags);
EMU_DRIVER_API(cuEventRecordWithFlags);
EMU_DRIVER_API(cuGraphCreate);
EMU_DRIVER_API(cuGraphInstantiate);
EMU_DRIVER_API(cuGraphLaunch);
EMU_DRIVER_API(cuGraphDestroy);
EMU_DRIVER_API(cuGraphExecDestroy);
EMU_DRIVER_API(cuGraphAddKernelNode);
EMU_DRIVER_API(cuGraphAddMemcpyNode);
EMU_DRIVER_API(cuGraphAddMemsetNode);
EMU_DRIVER_API(cuGraphAddHostNode);
EMU_DRIVER_API(cuArrayCreate);
EMU_DRIVER_API(cuArrayDestroy);
EMU_DRIVER_API(cuArray3DCreate);
EMU_DRIVER_API(cuTexObjectCreate);
EMU_DRIVER_API(cuTexObjectDestroy);
EMU_DRIVER_API(cuSurfObjectCreate);
EMU_DRIVER_API(cuSurfObjectDestroy);
EMU_DRIVER_API(cuIpcGetMemHandle);
EMU_DRIVER_API(cuIpcOpenMemHandle);
EMU_DRIVER_API(cuIpcCloseMemHandle);
EMU_DRIVER_API(cuIpcGetEventHandle);
EMU_DRIVER_API(cuIpcOpenEventHandle);
#undef EMU_DRIVER_API
