// A planted bug as a student would write it: the barrier sits inside a branch only half of the block takes. The
// emulator must name this file and line, and the launch must fail.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void half_barrier(float* out) {
    __shared__ float tile[64];
    tile[threadIdx.x] = static_cast<float>(threadIdx.x);
    if (threadIdx.x < 32) {
        __syncthreads();  // @divergent_barrier
    }
    out[threadIdx.x] = tile[63 - threadIdx.x];
}

int main() {
    float* out;
    cudaMalloc(&out, 64 * sizeof(float));
    half_barrier<<<1, 64>>>(out);
    std::printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
    std::printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
