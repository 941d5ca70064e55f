// A host file written against the CUDA driver API (a context, a module loaded from PTX, cuLaunchKernel, a stream
// capture), as some samples do. The emulator implements the driver API's common calls (emu/driver_api.hpp); a call it
// does not (here the stream capture of CUDA graphs) must be refused at its line with one sentence that names it,
// never a page of "was not declared". With -DVERSION_ONLY the file includes <cuda.h> only
// for CUDA_VERSION, which must still compile. With -DUNLISTED, compiled as CUDA (-x cu), it calls a driver function
// cuda.h does not list (as the blog's printf-alternative helper calls cuMemGetAddressRange, listed since), refused
// in the same sentence by the rewriter, after a function of the program's own whose name has the driver API's form,
// which is the program's business.
#include <cuda.h>

#include <cstdio>

#ifdef VERSION_ONLY
int main() {
    std::printf("built against CUDA %d\n", CUDA_VERSION);
    return 0;
}
#elif defined(UNLISTED)
static int cuHelperCount(int n) { return n + 1; }
int main() {
    unsigned long long handle = 0;
    const int own = cuHelperCount(1);
    cuMemGetHandleForAddressRange(&handle, static_cast<CUdeviceptr>(own), 256, 0, 0);
    return 0;
}
#else
int main() {
    CUdevice device = 0;
    CUcontext context = nullptr;
    CUmodule module = nullptr;
    CUfunction add = nullptr;
    CUdeviceptr buffer = 0;
    if (cuStreamBeginCapture(nullptr, 0) != CUDA_SUCCESS) return 1;
    cuDeviceGet(&device, 0);
    cuCtxCreate(&context, 0, device);
    cuModuleLoad(&module, "add.ptx");
    cuModuleGetFunction(&add, module, "add_one");
    cuMemAlloc(&buffer, 256 * sizeof(float));
    void* args[] = {&buffer};
    cuLaunchKernel(add, 1, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr);
    cuCtxDestroy(context);
    return 0;
}
#endif
