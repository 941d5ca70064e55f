// workbook-gpu-probe: can the CUDA runtime that the gpu harnesses link use a device on this machine?
// Prints the first device's name and exits 0, or prints the CUDA error and exits 1.
//
// `workbook grade` runs it before it chooses the gpu backend, because `nvidia-smi` can list a GPU that this toolkit's
// runtime cannot use: a driver older than the toolkit (CUDA 13 needs a driver of the 580 series or newer), a container
// without the device files. Without the probe, every hidden test would fail on its first cudaMalloc and a correct
// kernel would score 0.
#include <cuda_runtime.h>

#include <cstdio>

int main() {
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e == cudaSuccess && count == 0) {
        std::printf("the CUDA runtime sees no device\n");
        return 1;
    }
    cudaDeviceProp prop{};
    if (e == cudaSuccess) e = cudaGetDeviceProperties(&prop, 0);
    if (e == cudaSuccess) e = cudaFree(nullptr);  // creates the context, as each hidden test's first call does
    if (e != cudaSuccess) {
        std::printf("%s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
        return 1;
    }
    std::printf("%s\n", prop.name);
    return 0;
}
