// Planted synchronization bugs in a student-style file, one per mode; `fixed` runs the corrected kernels, which must
// produce no diagnostic. Each failing mode must be reported with this file's name and line and fail the launch.
#include <cuda_runtime.h>
#include <emu/api.h>

#include <cstdio>
#include <cstring>

__device__ float warp_total(float v, unsigned mask) {
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_xor_sync(mask, v, offset);  // @shuffle
    return v;
}

// Bug: lanes past n return before the shuffle, yet the mask still names them.
__global__ void early_return_shuffle(const float* in, float* out, int n, bool fixed) {
    const int i = threadIdx.x;
    if (!fixed && i >= n) return;
    const float v = i < n ? in[i] : 0.0f;
    const float total = warp_total(v, 0xffffffffu);
    if (i == 0) *out = total;
}

// Bug: a __syncwarp inside a branch half the warp takes, while the other half goes on to __syncthreads.
__global__ void half_warp_sync(float* out, bool fixed) {
    __shared__ float tile[64];
    tile[threadIdx.x] = static_cast<float>(threadIdx.x);
    if (threadIdx.x % 32 < 16) {
        __syncwarp(fixed ? 0x0000ffffu : 0xffffffffu);  // @syncwarp
    }
    __syncthreads();  // @syncthreads
    out[threadIdx.x] = tile[63 - threadIdx.x];
}

int main(int argc, char** argv) {
    const char* mode = argc > 1 ? argv[1] : "fixed";
    const bool fixed = std::strcmp(mode, "fixed") == 0;
    float *in, *out;
    cudaMalloc(&in, 32 * sizeof(float));
    cudaMalloc(&out, 64 * sizeof(float));
    cudaMemset(in, 0, 32 * sizeof(float));
    if (fixed || std::strcmp(mode, "shuffle") == 0) early_return_shuffle<<<1, 32>>>(in, out, 20, fixed);
    if (fixed || std::strcmp(mode, "deadlock") == 0) half_warp_sync<<<1, 64>>>(out, fixed);
    const cudaError_t err = cudaDeviceSynchronize();
    const auto diags = emu::take_diagnostics();
    std::printf("result: %s, %zu diagnostics\n", cudaGetErrorName(err), diags.size());
    if (fixed && err == cudaSuccess && diags.empty()) std::puts("CLEAN");
    return 0;
}
