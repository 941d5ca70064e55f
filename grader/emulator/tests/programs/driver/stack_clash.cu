// A device function whose frame (a 268 KB local array: legal on a GPU, whose threads have up to 512 KiB of local
// memory) is larger than an emulated thread's 256 KiB stack and its guard page, called by thread 0 alone. Its one
// instrumented access lies inside its own stack; the call of `twice` pushes a return address far below it, and that
// push and the callee's saved registers are not instrumented. Without stack probes they landed in another CUDA
// thread's stack and nothing was reported: the launch succeeded (every run with the address layout fixed, 4 in 10
// with it random). The overflow must be reported in thread (0,0,0), before any such write (the report ends the
// program: "REPORTED" is never printed).
#include <cstdio>

__device__ float twice(float x) { return x * 2.f; }

__device__ __noinline__ float deep(float v) {
    float pad[67000];
    pad[66999] = v;
    return twice(pad[66999]);
}

__global__ void big_frame(float* out, int* seen) {
    volatile int mine = 12345 + static_cast<int>(threadIdx.x);
    if (threadIdx.x == 0) out[0] = deep(1.f);
    __syncthreads();
    seen[threadIdx.x] = mine;
}

int main() {
    float* d;
    int* s;
    cudaMalloc(&d, 64 * sizeof(float));
    cudaMalloc(&s, 64 * sizeof(int));
    big_frame<<<1, 64>>>(d, s);
    const cudaError_t e = cudaDeviceSynchronize();
    std::printf("launch: %s\n", cudaGetErrorName(e));
    return std::puts(e == cudaSuccess ? "FAIL: the overflow went unreported" : "REPORTED"), 0;
}
