// Ground truth for the emulator: what the real CUDA runtime returns for bad launches, shuffle lanes outside a
// width segment, and faults. Run on a GPU: nvcc -std=c++17 -arch=native -o launch_errors launch_errors.cu && ./launch_errors
#include <cstdio>
#include <cuda_runtime.h>
__global__ void k(float* p) {
    if (p) p[threadIdx.x] = 1;
}
__global__ void kdyn(float* p) {
    extern __shared__ float s[];
    s[threadIdx.x] = 1;
    __syncthreads();
    if (p) p[0] = s[0];
}
__global__ void kmis(const float* p, float* o) {
    float4 v = *reinterpret_cast<const float4*>(p);
    o[0] = v.x + v.y + v.z + v.w;
}
__global__ void kshfl(int* o, int width) {
    int v = threadIdx.x;
    o[threadIdx.x] =
        __shfl_sync(0xffffffff, v, threadIdx.x + 5, width) * 1000 + __shfl_up_sync(0xffffffff, v, 3, width);
}
static void report(const char* what) {
    cudaError_t e = cudaGetLastError();
    cudaError_t s = cudaDeviceSynchronize();
    printf("%-44s launch: %s (%d)   sync: %s (%d)\n", what, cudaGetErrorName(e), (int)e, cudaGetErrorName(s), (int)s);
}
int main() {
    float* d;
    cudaMalloc(&d, 4096);
    k<<<1, 1025>>>(d);
    report("block of 1025 threads");
    k<<<1, dim3(1, 1, 65)>>>(d);
    report("block z = 65");
    k<<<0, 32>>>(d);
    report("grid of 0 blocks");
    k<<<1, 0>>>(d);
    report("block of 0 threads");
    kdyn<<<1, 32, 49 * 1024>>>(d);
    report("49 KiB dynamic smem, no attribute");
    cudaError_t a = cudaFuncSetAttribute(kdyn, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024);
    printf("set attribute 100 KiB: %s\n", cudaGetErrorName(a));
    kdyn<<<1, 32, 100 * 1024>>>(d);
    report("100 KiB dynamic smem, with attribute");
    a = cudaFuncSetAttribute(kdyn, cudaFuncAttributeMaxDynamicSharedMemorySize, 240 * 1024);
    printf("set attribute 240 KiB: %s\n", cudaGetErrorName(a));
    kdyn<<<1, 32, 240 * 1024>>>(d);
    report("240 KiB dynamic smem");
    int* o;
    cudaMalloc(&o, 32 * sizeof(int));
    int h[32];
    for (int w : {32, 16, 8}) {
        kshfl<<<1, 32>>>(o, w);
        report("shfl");
        cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);
        printf("width %2d:", w);
        for (int i = 0; i < 32; ++i) printf(" %d", h[i]);
        printf("\n");
    }
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    printf("%s smemPerBlock %zu optin %zu l2 %d SMs %d\n", p.name, p.sharedMemPerBlock, p.sharedMemPerBlockOptin,
           p.l2CacheSize, p.multiProcessorCount);
    kmis<<<1, 1>>>(d + 1, d);
    report("misaligned float4 load");
    k<<<1, 32>>>(d);
    report("launch after the fault (sticky?)");
    float* far = d + (1ull << 38);  // far outside any allocation
    k<<<1, 1>>>(far);
    report("far out-of-bounds write");
    return 0;
}
