// The driver API's common calls (cuda.h), each done by the runtime API it corresponds to: initialization, devices and
// their attributes, contexts (one, the primary context: the emulated device has no other), memory, copies and sets,
// streams, events, and cuLaunchKernel of a kernel of the program's own (a CUfunction from cudaGetFuncBySymbol, or the
// kernel's address cast). Error codes are the driver's, which equal the runtime's for every code returned here.
// A module (cuModuleLoad*, PTX, cubin, fatbin) is GPU machine code: loading one fails with CUDA_ERROR_NOT_SUPPORTED
// after one sentence on stderr, as do the launch's `extra` argument and the calls cuda.h still refuses at compile time.
#pragma once
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace emu::drv {

inline bool& initialized() {
    static bool done = false;
    return done;
}
inline CUcontext& current() {
    static CUcontext ctx = nullptr;
    return ctx;
}
// The one context there is: the device's primary context. Its address is its handle.
inline CUcontext primary() {
    static int tag = 0;
    return reinterpret_cast<CUcontext>(&tag);
}
inline CUresult result(cudaError_t e) { return static_cast<CUresult>(e); }
inline CUresult checked(cudaError_t e) { return initialized() ? result(e) : CUDA_ERROR_NOT_INITIALIZED; }
inline void* ptr(CUdeviceptr p) { return reinterpret_cast<void*>(static_cast<std::uintptr_t>(p)); }
inline CUresult not_supported(const std::string& call, const char* why) {
    std::fprintf(stderr,
                 "emu: %s: %s; the call fails with CUDA_ERROR_NOT_SUPPORTED (launch the program's own kernels with "
                 "<<<...>>>, or with cudaGetFuncBySymbol and cuLaunchKernel, or run this program on a GPU).\n",
                 call.c_str(), why);
    return CUDA_ERROR_NOT_SUPPORTED;
}
inline CUresult module_refused(const char* call, const char* image) {
    return not_supported(image ? std::string(call) + "(\"" + image + "\")" : std::string(call),
                         "a module (PTX, cubin or fatbin) holds GPU code, which the CPU emulator cannot load or run");
}
// cuMemsetD16/D32: a pattern wider than a byte, written through a host copy (host code may not store into device
// memory, and cudaMemset repeats one byte).
template <class T>
CUresult fill(CUdeviceptr dst, T value, std::size_t n, cudaStream_t stream) {
    if (!initialized()) return CUDA_ERROR_NOT_INITIALIZED;
    std::vector<T> pattern(n, value);
    return result(cudaMemcpyAsync(ptr(dst), pattern.data(), n * sizeof(T), cudaMemcpyHostToDevice, stream));
}

}  // namespace emu::drv

inline CUresult cuInit(unsigned flags) {
    if (flags != 0) return CUDA_ERROR_INVALID_VALUE;
    emu::drv::initialized() = true;
    return CUDA_SUCCESS;
}
inline CUresult cuDriverGetVersion(int* version) { return emu::drv::result(cudaDriverGetVersion(version)); }
inline CUresult cuGetErrorString(CUresult error, const char** text) {
    if (!text) return CUDA_ERROR_INVALID_VALUE;
    *text = cudaGetErrorString(static_cast<cudaError_t>(error));
    return CUDA_SUCCESS;
}
inline CUresult cuGetErrorName(CUresult error, const char** name) {
    if (!name) return CUDA_ERROR_INVALID_VALUE;
    switch (error) {
#define EMU_CU_NAME(n) \
    case n: *name = #n; return CUDA_SUCCESS;
        EMU_CU_NAME(CUDA_SUCCESS)
        EMU_CU_NAME(CUDA_ERROR_INVALID_VALUE)
        EMU_CU_NAME(CUDA_ERROR_OUT_OF_MEMORY)
        EMU_CU_NAME(CUDA_ERROR_NOT_INITIALIZED)
        EMU_CU_NAME(CUDA_ERROR_DEINITIALIZED)
        EMU_CU_NAME(CUDA_ERROR_NO_DEVICE)
        EMU_CU_NAME(CUDA_ERROR_INVALID_DEVICE)
        EMU_CU_NAME(CUDA_ERROR_INVALID_IMAGE)
        EMU_CU_NAME(CUDA_ERROR_INVALID_CONTEXT)
        EMU_CU_NAME(CUDA_ERROR_FILE_NOT_FOUND)
        EMU_CU_NAME(CUDA_ERROR_INVALID_HANDLE)
        EMU_CU_NAME(CUDA_ERROR_NOT_FOUND)
        EMU_CU_NAME(CUDA_ERROR_NOT_READY)
        EMU_CU_NAME(CUDA_ERROR_ILLEGAL_ADDRESS)
        EMU_CU_NAME(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES)
        EMU_CU_NAME(CUDA_ERROR_LAUNCH_FAILED)
        EMU_CU_NAME(CUDA_ERROR_NOT_SUPPORTED)
        EMU_CU_NAME(CUDA_ERROR_UNKNOWN)
#undef EMU_CU_NAME
        default: *name = nullptr; return CUDA_ERROR_INVALID_VALUE;
    }
}

// ---- devices ----------------------------------------------------------------------------------------------------
inline CUresult cuDeviceGetCount(int* count) { return emu::drv::checked(cudaGetDeviceCount(count)); }
inline CUresult cuDeviceGet(CUdevice* device, int ordinal) {
    if (!emu::drv::initialized()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!device) return CUDA_ERROR_INVALID_VALUE;
    int count = 0;
    cudaGetDeviceCount(&count);
    if (ordinal < 0 || ordinal >= count) return CUDA_ERROR_INVALID_DEVICE;
    *device = ordinal;
    return CUDA_SUCCESS;
}
inline CUresult cuDeviceGetName(char* name, int length, CUdevice device) {
    if (!emu::drv::initialized()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!name || length <= 0) return CUDA_ERROR_INVALID_VALUE;
    cudaDeviceProp prop;
    if (cudaError_t e = cudaGetDeviceProperties(&prop, device); e != cudaSuccess) return CUDA_ERROR_INVALID_DEVICE;
    std::strncpy(name, prop.name, static_cast<std::size_t>(length) - 1);
    name[length - 1] = '\0';
    return CUDA_SUCCESS;
}
// The driver's attribute numbers are the runtime's cudaDeviceAttr numbers.
inline CUresult cuDeviceGetAttribute(int* value, CUdevice_attribute attribute, CUdevice device) {
    if (!emu::drv::initialized()) return CUDA_ERROR_NOT_INITIALIZED;
    return cudaDeviceGetAttribute(value, static_cast<cudaDeviceAttr>(attribute), device) == cudaSuccess
               ? CUDA_SUCCESS
               : CUDA_ERROR_INVALID_VALUE;
}
inline CUresult cuDeviceTotalMem(std::size_t* bytes, CUdevice device) {
    if (!emu::drv::initialized()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!bytes) return CUDA_ERROR_INVALID_VALUE;
    cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, device) != cudaSuccess) return CUDA_ERROR_INVALID_DEVICE;
    *bytes = prop.totalGlobalMem;
    return CUDA_SUCCESS;
}
inline CUresult cuDeviceComputeCapability(int* major, int* minor, CUdevice device) {
    if (!emu::drv::initialized()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!major || !minor) return CUDA_ERROR_INVALID_VALUE;
    cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, device) != cudaSuccess) return CUDA_ERROR_INVALID_DEVICE;
    *major = prop.major;
    *minor = prop.minor;
    return CUDA_SUCCESS;
}

// ---- contexts ---------------------------------------------------------------------------------------------------
inline CUresult cuDevicePrimaryCtxRetain(CUcontext* ctx, CUdevice device) {
    if (!emu::drv::initialized()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!ctx) return CUDA_ERROR_INVALID_VALUE;
    if (cudaSetDevice(device) != cudaSuccess) return CUDA_ERROR_INVALID_DEVICE;
    *ctx = emu::drv::primary();
    return CUDA_SUCCESS;
}
inline CUresult cuDevicePrimaryCtxRelease(CUdevice) { return emu::drv::checked(cudaSuccess); }
inline CUresult cuCtxCreate(CUcontext* ctx, unsigned /*flags*/, CUdevice device) {
    const CUresult r = cuDevicePrimaryCtxRetain(ctx, device);
    if (r == CUDA_SUCCESS) emu::drv::current() = *ctx;
    return r;
}
// CUDA 13's form (cuCtxCreate_v4): creation parameters (execution affinity, CIG) the emulated device has none of.
inline CUresult cuCtxCreate(CUcontext* ctx, CUctxCreateParams* params, unsigned flags, CUdevice device) {
    if (params) return emu::drv::not_supported("cuCtxCreate", "context creation parameters are not emulated");
    return cuCtxCreate(ctx, flags, device);
}
inline CUresult cuCtxDestroy(CUcontext ctx) {
    if (!emu::drv::initialized()) return CUDA_ERROR_NOT_INITIALIZED;
    if (ctx != emu::drv::primary()) return CUDA_ERROR_INVALID_CONTEXT;
    if (emu::drv::current() == ctx) emu::drv::current() = nullptr;
    return CUDA_SUCCESS;
}
inline CUresult cuCtxSynchronize() { return emu::drv::checked(cudaDeviceSynchronize()); }
inline CUresult cuCtxSetCurrent(CUcontext ctx) {
    if (!emu::drv::initialized()) return CUDA_ERROR_NOT_INITIALIZED;
    if (ctx && ctx != emu::drv::primary()) return CUDA_ERROR_INVALID_CONTEXT;
    emu::drv::current() = ctx;
    return CUDA_SUCCESS;
}
inline CUresult cuCtxGetCurrent(CUcontext* ctx) {
    if (!emu::drv::initialized()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!ctx) return CUDA_ERROR_INVALID_VALUE;
    *ctx = emu::drv::current();
    return CUDA_SUCCESS;
}
inline CUresult cuCtxPushCurrent(CUcontext ctx) { return cuCtxSetCurrent(ctx); }
inline CUresult cuCtxPopCurrent(CUcontext* ctx) {
    if (!emu::drv::initialized()) return CUDA_ERROR_NOT_INITIALIZED;
    if (ctx) *ctx = emu::drv::current();
    emu::drv::current() = nullptr;
    return CUDA_SUCCESS;
}
inline CUresult cuCtxGetDevice(CUdevice* device) {
    if (!emu::drv::initialized()) return CUDA_ERROR_NOT_INITIALIZED;
    int d = 0;
    cudaGetDevice(&d);
    if (device) *device = d;
    return device ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
inline CUresult cuCtxSetCacheConfig(int) { return emu::drv::checked(cudaSuccess); }

// ---- modules: GPU code, which the emulator cannot load ---------------------------------------------------------
inline CUresult cuModuleLoad(CUmodule* module, const char* path) {
    if (module) *module = nullptr;
    return emu::drv::module_refused("cuModuleLoad", path);
}
inline CUresult cuModuleLoadData(CUmodule* module, const void*) {
    if (module) *module = nullptr;
    return emu::drv::module_refused("cuModuleLoadData", nullptr);
}
inline CUresult cuModuleLoadDataEx(CUmodule* module, const void*, unsigned, CUjit_option*, void**) {
    if (module) *module = nullptr;
    return emu::drv::module_refused("cuModuleLoadDataEx", nullptr);
}
inline CUresult cuModuleLoadFatBinary(CUmodule* module, const void*) {
    if (module) *module = nullptr;
    return emu::drv::module_refused("cuModuleLoadFatBinary", nullptr);
}
inline CUresult cuModuleGetFunction(CUfunction* f, CUmodule, const char* name) {
    if (f) *f = nullptr;
    return emu::drv::module_refused("cuModuleGetFunction", name);
}
inline CUresult cuModuleGetGlobal(CUdeviceptr* p, std::size_t* bytes, CUmodule, const char* name) {
    if (p) *p = 0;
    if (bytes) *bytes = 0;
    return emu::drv::module_refused("cuModuleGetGlobal", name);
}
inline CUresult cuModuleUnload(CUmodule module) { return module ? CUDA_ERROR_INVALID_HANDLE : CUDA_SUCCESS; }

// ---- launches of the program's own kernels --------------------------------------------------------------------
inline CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                               unsigned bz, unsigned shared_bytes, CUstream stream, void** params, void** extra) {
    if (!emu::drv::initialized()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!f) return CUDA_ERROR_INVALID_HANDLE;
    if (extra)
        return emu::drv::not_supported("cuLaunchKernel", "arguments packed in one buffer (`extra`) are not emulated");
    return emu::drv::result(cudaLaunchKernel(reinterpret_cast<const void*>(f), dim3(gx, gy, gz), dim3(bx, by, bz),
                                             params, shared_bytes, stream));
}
inline CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                          unsigned bz, unsigned shared_bytes, CUstream stream, void** params) {
    if (!emu::drv::initialized()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!f) return CUDA_ERROR_INVALID_HANDLE;
    return emu::drv::result(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(f), dim3(gx, gy, gz),
                                                        dim3(bx, by, bz), params, shared_bytes, stream));
}
inline CUresult cuFuncSetCacheConfig(CUfunction f, int) {
    return f ? emu::drv::checked(cudaSuccess) : CUDA_ERROR_INVALID_HANDLE;
}
inline CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, CUfunction f, int block_size,
                                                            std::size_t dynamic_shared) {
    if (!f) return CUDA_ERROR_INVALID_HANDLE;
    return emu::drv::checked(emu_occupancy(blocks, block_size, dynamic_shared));
}

// ---- memory -----------------------------------------------------------------------------------------------------
inline CUresult cuMemGetInfo(std::size_t* free_bytes, std::size_t* total_bytes) {
    return emu::drv::checked(cudaMemGetInfo(free_bytes, total_bytes));
}
inline CUresult cuMemAlloc(CUdeviceptr* p, std::size_t bytes) {
    if (!emu::drv::initialized()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!p || bytes == 0) return CUDA_ERROR_INVALID_VALUE;  // the driver refuses 0 bytes, unlike cudaMalloc
    void* raw = nullptr;
    const cudaError_t e = cudaMalloc(&raw, bytes);
    *p = reinterpret_cast<std::uintptr_t>(raw);
    return emu::drv::result(e);
}
inline CUresult cuMemAllocManaged(CUdeviceptr* p, std::size_t bytes, unsigned flags) {
    if (!emu::drv::initialized()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!p || bytes == 0) return CUDA_ERROR_INVALID_VALUE;
    void* raw = nullptr;
    const cudaError_t e = cudaMallocManaged(&raw, bytes, flags);
    *p = reinterpret_cast<std::uintptr_t>(raw);
    return emu::drv::result(e);
}
inline CUresult cuMemAllocPitch(CUdeviceptr* p, std::size_t* pitch, std::size_t width, std::size_t height,
                                unsigned element_bytes) {
    if (!emu::drv::initialized()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!p || (element_bytes != 4 && element_bytes != 8 && element_bytes != 16)) return CUDA_ERROR_INVALID_VALUE;
    void* raw = nullptr;
    const cudaError_t e = cudaMallocPitch(&raw, pitch, width, height);
    *p = reinterpret_cast<std::uintptr_t>(raw);
    return emu::drv::result(e);
}
inline CUresult cuMemFree(CUdeviceptr p) { return emu::drv::checked(cudaFree(emu::drv::ptr(p))); }
inline CUresult cuMemAllocHost(void** p, std::size_t bytes) { return emu::drv::checked(cudaMallocHost(p, bytes)); }
inline CUresult cuMemHostAlloc(void** p, std::size_t bytes, unsigned flags) {
    return emu::drv::checked(cudaHostAlloc(p, bytes, flags));
}
inline CUresult cuMemFreeHost(void* p) { return emu::drv::checked(cudaFreeHost(p)); }
inline CUresult cuMemHostGetDevicePointer(CUdeviceptr* p, void* host, unsigned flags) {
    if (!emu::drv::initialized()) return CUDA_ERROR_NOT_INITIALIZED;
    if (!p) return CUDA_ERROR_INVALID_VALUE;
    void* raw = nullptr;
    const cudaError_t e = cudaHostGetDevicePointer(&raw, host, flags);
    *p = reinterpret_cast<std::uintptr_t>(raw);
    return emu::drv::result(e);
}
inline CUresult cuMemcpyHtoD(CUdeviceptr dst, const void* src, std::size_t bytes) {
    return emu::drv::checked(cudaMemcpy(emu::drv::ptr(dst), src, bytes, cudaMemcpyHostToDevice));
}
inline CUresult cuMemcpyDtoH(void* dst, CUdeviceptr src, std::size_t bytes) {
    return emu::drv::checked(cudaMemcpy(dst, emu::drv::ptr(src), bytes, cudaMemcpyDeviceToHost));
}
inline CUresult cuMemcpyDtoD(CUdeviceptr dst, CUdeviceptr src, std::size_t bytes) {
    return emu::drv::checked(cudaMemcpy(emu::drv::ptr(dst), emu::drv::ptr(src), bytes, cudaMemcpyDeviceToDevice));
}
inline CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, std::size_t bytes) {
    return emu::drv::checked(cudaMemcpy(emu::drv::ptr(dst), emu::drv::ptr(src), bytes, cudaMemcpyDefault));
}
inline CUresult cuMemcpyHtoDAsync(CUdeviceptr dst, const void* src, std::size_t bytes, CUstream stream) {
    return emu::drv::checked(cudaMemcpyAsync(emu::drv::ptr(dst), src, bytes, cudaMemcpyHostToDevice, stream));
}
inline CUresult cuMemcpyDtoHAsync(void* dst, CUdeviceptr src, std::size_t bytes, CUstream stream) {
    return emu::drv::checked(cudaMemcpyAsync(dst, emu::drv::ptr(src), bytes, cudaMemcpyDeviceToHost, stream));
}
inline CUresult cuMemcpyDtoDAsync(CUdeviceptr dst, CUdeviceptr src, std::size_t bytes, CUstream stream) {
    return emu::drv::checked(
        cudaMemcpyAsync(emu::drv::ptr(dst), emu::drv::ptr(src), bytes, cudaMemcpyDeviceToDevice, stream));
}
inline CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, std::size_t bytes, CUstream stream) {
    return emu::drv::checked(cudaMemcpyAsync(emu::drv::ptr(dst), emu::drv::ptr(src), bytes, cudaMemcpyDefault, stream));
}
inline CUresult cuMemsetD8(CUdeviceptr dst, unsigned char value, std::size_t n) {
    return emu::drv::checked(cudaMemset(emu::drv::ptr(dst), value, n));
}
inline CUresult cuMemsetD8Async(CUdeviceptr dst, unsigned char value, std::size_t n, CUstream stream) {
    return emu::drv::checked(cudaMemsetAsync(emu::drv::ptr(dst), value, n, stream));
}
inline CUresult cuMemsetD16(CUdeviceptr dst, unsigned short value, std::size_t n) {
    return emu::drv::fill(dst, value, n, nullptr);
}
inline CUresult cuMemsetD16Async(CUdeviceptr dst, unsigned short value, std::size_t n, CUstream stream) {
    return emu::drv::fill(dst, value, n, stream);
}
inline CUresult cuMemsetD32(CUdeviceptr dst, unsigned value, std::size_t n) {
    return emu::drv::fill(dst, value, n, nullptr);
}
inline CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned value, std::size_t n, CUstream stream) {
    return emu::drv::fill(dst, value, n, stream);
}
// The allocation that holds `p`: its start and size (the emulator's device heap knows them; runtime/device_memory.cpp).
inline CUresult cuMemGetAddressRange(CUdeviceptr* base, std::size_t* size, CUdeviceptr p) {
    if (!emu::drv::initialized()) return CUDA_ERROR_NOT_INITIALIZED;
    void* b = nullptr;
    std::size_t n = 0;
    if (!emu_device_allocation_range(emu::drv::ptr(p), &b, &n)) return CUDA_ERROR_NOT_FOUND;
    if (base) *base = reinterpret_cast<std::uintptr_t>(b);
    if (size) *size = n;
    return CUDA_SUCCESS;
}

// ---- streams and events ---------------------------------------------------------------------------------------
inline CUresult cuStreamCreate(CUstream* stream, unsigned flags) {
    return emu::drv::checked(cudaStreamCreateWithFlags(stream, flags));
}
inline CUresult cuStreamDestroy(CUstream stream) { return emu::drv::checked(cudaStreamDestroy(stream)); }
inline CUresult cuStreamSynchronize(CUstream stream) { return emu::drv::checked(cudaStreamSynchronize(stream)); }
inline CUresult cuStreamQuery(CUstream stream) { return emu::drv::checked(cudaStreamQuery(stream)); }
inline CUresult cuStreamWaitEvent(CUstream stream, CUevent event, unsigned flags) {
    return emu::drv::checked(cudaStreamWaitEvent(stream, event, flags));
}
inline CUresult cuEventCreate(CUevent* event, unsigned flags) {
    return emu::drv::checked(cudaEventCreateWithFlags(event, flags));
}
inline CUresult cuEventDestroy(CUevent event) { return emu::drv::checked(cudaEventDestroy(event)); }
inline CUresult cuEventRecord(CUevent event, CUstream stream) {
    return emu::drv::checked(cudaEventRecord(event, stream));
}
inline CUresult cuEventSynchronize(CUevent event) { return emu::drv::checked(cudaEventSynchronize(event)); }
inline CUresult cuEventQuery(CUevent event) { return emu::drv::checked(cudaEventQuery(event)); }
inline CUresult cuEventElapsedTime(float* ms, CUevent start, CUevent end) {
    return emu::drv::checked(cudaEventElapsedTime(ms, start, end));
}
inline CUresult cuProfilerStart() { return CUDA_SUCCESS; }
inline CUresult cuProfilerStop() { return CUDA_SUCCESS; }
