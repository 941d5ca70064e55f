// The driver API as its samples use it (a context, cuMemAlloc'd buffers, copies, cuLaunchKernel with an argument
// array), the kernel being one of this program's own, found with cudaGetFuncBySymbol. A module file cannot be
// loaded on the emulator: the program tries one first and falls back to its own kernel, as programs that ship a
// fallback do; with the argument "module" it insists on the module and must stop at cuModuleLoad with the driver's
// error name.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define checkCuErrors(call)                                                                          \
    do {                                                                                             \
        CUresult status_ = (call);                                                                   \
        if (status_ != CUDA_SUCCESS) {                                                               \
            const char* name_ = nullptr;                                                             \
            cuGetErrorName(status_, &name_);                                                         \
            std::fprintf(stderr, "driver API error %d (%s) at %s:%d\n", (int)status_, name_, __FILE__, \
                         __LINE__);                                                                  \
            std::exit(EXIT_FAILURE);                                                                 \
        }                                                                                            \
    } while (0)

extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

int main(int argc, char** argv) {
    const bool insist_on_module = argc > 1 && std::strcmp(argv[1], "module") == 0;
    checkCuErrors(cuInit(0));
    int devices = 0;
    checkCuErrors(cuDeviceGetCount(&devices));
    CUdevice device;
    checkCuErrors(cuDeviceGet(&device, 0));
    char name[128];
    checkCuErrors(cuDeviceGetName(name, sizeof name, device));
    int major = 0, minor = 0, sms = 0, warp = 0;
    checkCuErrors(cuDeviceComputeCapability(&major, &minor, device));
    checkCuErrors(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device));
    checkCuErrors(cuDeviceGetAttribute(&warp, CU_DEVICE_ATTRIBUTE_WARP_SIZE, device));
    std::size_t total = 0;
    checkCuErrors(cuDeviceTotalMem(&total, device));
    std::printf("%d device(s); device 0: %s, compute capability %d.%d, %d SMs, %zu MiB\n", devices, name, major,
                minor, sms, total >> 20);

    CUcontext context;
    checkCuErrors(cuCtxCreate(&context, 0, device));
    CUcontext current = nullptr;
    checkCuErrors(cuCtxGetCurrent(&current));

    CUfunction add = nullptr;
    CUmodule module = nullptr;
    CUresult loaded = cuModuleLoad(&module, "vector_add_kernel.fatbin");
    if (loaded == CUDA_SUCCESS) {
        checkCuErrors(cuModuleGetFunction(&add, module, "vector_add"));
    } else if (insist_on_module) {
        checkCuErrors(loaded);
    } else {
        std::printf("no module (%d); launching the built-in kernel\n", (int)loaded);
        if (cudaGetFuncBySymbol(&add, (const void*)vector_add) != cudaSuccess) return EXIT_FAILURE;
    }

    const int n = 5000;
    const std::size_t bytes = n * sizeof(float);
    std::vector<float> a(n), b(n), c(n, -1.0f);
    for (int i = 0; i < n; ++i) {
        a[i] = std::sin(0.001f * i);
        b[i] = 0.5f * i;
    }
    CUdeviceptr da, db, dc;
    checkCuErrors(cuMemAlloc(&da, bytes));
    checkCuErrors(cuMemAlloc(&db, bytes));
    checkCuErrors(cuMemAlloc(&dc, bytes));
    checkCuErrors(cuMemcpyHtoD(da, a.data(), bytes));
    checkCuErrors(cuMemcpyHtoD(db, b.data(), bytes));
    checkCuErrors(cuMemsetD32(dc, 0x7fc00000u, n));  // quiet NaNs: an element the kernel misses shows

    CUevent start, stop;
    checkCuErrors(cuEventCreate(&start, CU_EVENT_DEFAULT));
    checkCuErrors(cuEventCreate(&stop, CU_EVENT_DEFAULT));
    const int threads = 256, blocks = (n + threads - 1) / threads;
    int count = n;
    void* args[] = {&da, &db, &dc, &count};
    checkCuErrors(cuEventRecord(start, 0));
    checkCuErrors(cuLaunchKernel(add, blocks, 1, 1, threads, 1, 1, 0, nullptr, args, nullptr));
    checkCuErrors(cuEventRecord(stop, 0));
    checkCuErrors(cuCtxSynchronize());
    float ms = 0;
    checkCuErrors(cuEventElapsedTime(&ms, start, stop));
    checkCuErrors(cuMemcpyDtoH(c.data(), dc, bytes));

    int errors = 0;
    for (int i = 0; i < n; ++i)
        if (std::fabs(c[i] - (a[i] + b[i])) > 1e-5f) ++errors;

    // The allocation behind a pointer into the middle of a buffer.
    CUdeviceptr base = 0;
    std::size_t size = 0;
    checkCuErrors(cuMemGetAddressRange(&base, &size, dc + 100 * sizeof(float)));
    if (base != dc || size != bytes) ++errors;
    // A 16-bit pattern, read back.
    checkCuErrors(cuMemsetD16(db, 0xbeef, 8));
    unsigned short shorts[8];
    checkCuErrors(cuMemcpyDtoH(shorts, db, sizeof shorts));
    for (unsigned short s : shorts)
        if (s != 0xbeef) ++errors;

    checkCuErrors(cuEventDestroy(start));
    checkCuErrors(cuEventDestroy(stop));
    checkCuErrors(cuMemFree(da));
    checkCuErrors(cuMemFree(db));
    checkCuErrors(cuMemFree(dc));
    checkCuErrors(cuCtxDestroy(context));
    std::printf("%d of %d elements wrong (kernel %.3f ms)\n", errors, n, ms);
    std::printf("%s\n", errors == 0 && current == context ? "Test PASSED" : "Test FAILED");
    return errors == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
