// The driver API's header. The emulator implements the runtime API (cuda_runtime.h) only; a program that includes
// this header for CUDA_VERSION compiles as before. The driver API's types are declared so that a program that uses
// it compiles up to its calls, and each call is then refused by g++ with one sentence that names the function, at
// its file:line (as keywords.hpp refuses thread block clusters). `__cuda_cuda_h__`, which helpers such as
// cuda-samples' helper_cuda.h test before defining their driver-API overloads, stays undefined.
#pragma once
#define CUDA_VERSION 12080
#include <cuda_runtime_api.h>

typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st* CUcontext;
typedef struct CUmod_st* CUmodule;
typedef struct CUfunc_st* CUfunction;
typedef struct CUlinkState_st* CUlinkState;
typedef struct CUstream_st* CUstream;  // the same type as cudaStream_t, as in CUDA
typedef struct CUevent_st* CUevent;    // and cudaEvent_t
typedef enum cudaError_enum {
    CUDA_SUCCESS = 0,
    CUDA_ERROR_INVALID_VALUE = 1,
    CUDA_ERROR_OUT_OF_MEMORY = 2,
    CUDA_ERROR_NOT_INITIALIZED = 3,
    CUDA_ERROR_NO_DEVICE = 100,
    CUDA_ERROR_NOT_SUPPORTED = 801
} CUresult;

// Templates over any arguments, so that every call reaches its refusal whatever it passes. The common functions are
// listed; in a .cu file the rewriter refuses any other `cuXxx(` call nothing declared (refused_names.hpp).
#define EMU_DRIVER_API(name)                                                                                       \
    template <class... Args>                                                                                       \
    CUresult name(Args&&...) __attribute__((                                                                       \
        error("the CUDA driver API (" #name ") is not emulated by the CPU emulator, which implements the runtime " \
              "API (cuda_runtime.h) only: use cudaMalloc, cudaMemcpy and <<<...>>> launches instead, or run this " \
              "program on a GPU")))
EMU_DRIVER_API(cuInit);
EMU_DRIVER_API(cuDriverGetVersion);
EMU_DRIVER_API(cuGetErrorString);
EMU_DRIVER_API(cuGetErrorName);
EMU_DRIVER_API(cuGetProcAddress);
EMU_DRIVER_API(cuDeviceGet);
EMU_DRIVER_API(cuDeviceGetCount);
EMU_DRIVER_API(cuDeviceGetName);
EMU_DRIVER_API(cuDeviceGetAttribute);
EMU_DRIVER_API(cuDeviceTotalMem);
EMU_DRIVER_API(cuDeviceComputeCapability);
EMU_DRIVER_API(cuDevicePrimaryCtxRetain);
EMU_DRIVER_API(cuDevicePrimaryCtxRelease);
EMU_DRIVER_API(cuCtxCreate);
EMU_DRIVER_API(cuCtxDestroy);
EMU_DRIVER_API(cuCtxSynchronize);
EMU_DRIVER_API(cuCtxSetCurrent);
EMU_DRIVER_API(cuCtxGetCurrent);
EMU_DRIVER_API(cuCtxPushCurrent);
EMU_DRIVER_API(cuCtxPopCurrent);
EMU_DRIVER_API(cuModuleLoad);
EMU_DRIVER_API(cuModuleLoadData);
EMU_DRIVER_API(cuModuleLoadDataEx);
EMU_DRIVER_API(cuModuleLoadFatBinary);
EMU_DRIVER_API(cuModuleGetFunction);
EMU_DRIVER_API(cuModuleGetGlobal);
EMU_DRIVER_API(cuModuleUnload);
EMU_DRIVER_API(cuLinkCreate);
EMU_DRIVER_API(cuLinkAddData);
EMU_DRIVER_API(cuLinkAddFile);
EMU_DRIVER_API(cuLinkComplete);
EMU_DRIVER_API(cuLinkDestroy);
EMU_DRIVER_API(cuLaunchKernel);
EMU_DRIVER_API(cuLaunchCooperativeKernel);
EMU_DRIVER_API(cuFuncGetAttribute);
EMU_DRIVER_API(cuFuncSetAttribute);
EMU_DRIVER_API(cuFuncSetCacheConfig);
EMU_DRIVER_API(cuOccupancyMaxActiveBlocksPerMultiprocessor);
EMU_DRIVER_API(cuPointerGetAttribute);
EMU_DRIVER_API(cuMemGetInfo);
EMU_DRIVER_API(cuMemAlloc);
EMU_DRIVER_API(cuMemAllocPitch);
EMU_DRIVER_API(cuMemAllocManaged);
EMU_DRIVER_API(cuMemFree);
EMU_DRIVER_API(cuMemAllocHost);
EMU_DRIVER_API(cuMemFreeHost);
EMU_DRIVER_API(cuMemHostAlloc);
EMU_DRIVER_API(cuMemHostRegister);
EMU_DRIVER_API(cuMemHostUnregister);
EMU_DRIVER_API(cuMemcpy);
EMU_DRIVER_API(cuMemcpy2D);
EMU_DRIVER_API(cuMemcpyHtoD);
EMU_DRIVER_API(cuMemcpyDtoH);
EMU_DRIVER_API(cuMemcpyDtoD);
EMU_DRIVER_API(cuMemcpyHtoDAsync);
EMU_DRIVER_API(cuMemcpyDtoHAsync);
EMU_DRIVER_API(cuMemcpyDtoDAsync);
EMU_DRIVER_API(cuMemsetD8);
EMU_DRIVER_API(cuMemsetD16);
EMU_DRIVER_API(cuMemsetD32);
EMU_DRIVER_API(cuMemsetD8Async);
EMU_DRIVER_API(cuMemsetD32Async);
EMU_DRIVER_API(cuMemAddressReserve);
EMU_DRIVER_API(cuMemAddressFree);
EMU_DRIVER_API(cuMemCreate);
EMU_DRIVER_API(cuMemRelease);
EMU_DRIVER_API(cuMemMap);
EMU_DRIVER_API(cuMemUnmap);
EMU_DRIVER_API(cuMemSetAccess);
EMU_DRIVER_API(cuMemGetAllocationGranularity);
EMU_DRIVER_API(cuStreamCreate);
EMU_DRIVER_API(cuStreamDestroy);
EMU_DRIVER_API(cuStreamSynchronize);
EMU_DRIVER_API(cuStreamWaitEvent);
EMU_DRIVER_API(cuEventCreate);
EMU_DRIVER_API(cuEventDestroy);
EMU_DRIVER_API(cuEventRecord);
EMU_DRIVER_API(cuEventSynchronize);
EMU_DRIVER_API(cuEventElapsedTime);
EMU_DRIVER_API(cuMemGetAddressRange);
EMU_DRIVER_API(cuMemsetD16Async);
EMU_DRIVER_API(cuMemsetD2D8);
EMU_DRIVER_API(cuMemsetD2D16);
EMU_DRIVER_API(cuMemsetD2D32);
EMU_DRIVER_API(cuMemcpy3D);
EMU_DRIVER_API(cuMemcpyPeer);
EMU_DRIVER_API(cuMemcpyAsync);
EMU_DRIVER_API(cuMemcpy2DAsync);
EMU_DRIVER_API(cuMemcpy3DAsync);
EMU_DRIVER_API(cuMemcpyPeerAsync);
EMU_DRIVER_API(cuMemPrefetchAsync);
EMU_DRIVER_API(cuMemAdvise);
EMU_DRIVER_API(cuMemAllocAsync);
EMU_DRIVER_API(cuMemFreeAsync);
EMU_DRIVER_API(cuMemHostGetDevicePointer);
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
EMU_DRIVER_API(cuCtxGetDevice);
EMU_DRIVER_API(cuCtxGetApiVersion);
EMU_DRIVER_API(cuCtxGetFlags);
EMU_DRIVER_API(cuCtxSetLimit);
EMU_DRIVER_API(cuCtxGetLimit);
EMU_DRIVER_API(cuCtxEnablePeerAccess);
EMU_DRIVER_API(cuCtxDisablePeerAccess);
EMU_DRIVER_API(cuCtxSetCacheConfig);
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
EMU_DRIVER_API(cuStreamQuery);
EMU_DRIVER_API(cuStreamAddCallback);
EMU_DRIVER_API(cuStreamBeginCapture);
EMU_DRIVER_API(cuStreamEndCapture);
EMU_DRIVER_API(cuStreamGetCaptureInfo);
EMU_DRIVER_API(cuStreamAttachMemAsync);
EMU_DRIVER_API(cuStreamWriteValue32);
EMU_DRIVER_API(cuStreamWaitValue32);
EMU_DRIVER_API(cuStreamGetPriority);
EMU_DRIVER_API(cuStreamGetFlags);
EMU_DRIVER_API(cuEventQuery);
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
EMU_DRIVER_API(cuProfilerStart);
EMU_DRIVER_API(cuProfilerStop);
#undef EMU_DRIVER_API
