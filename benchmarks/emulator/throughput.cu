// Not a test: the emulator's throughput on two kernels built by emu-nvcc like any program.
//  1. fiber switches: every thread of a 1024-thread block waits at __syncthreads() `rounds` times; each wait is one
//     switch to the next thread (the engine switches straight from a blocking thread to the next runnable one), so
//     switches = threads x (rounds + 1) (the +1: the switch away at exit).
//  2. checked memory accesses: a grid-stride copy with a shared-memory stage; every global and shared load and
//     store goes through a ThreadSanitizer hook into the memory checker, counted exactly (emu::mc::g_hook_calls).
// CPU time of the process is what is reported (the machine is shared), with wall time beside it.
#include <time.h>

#include <chrono>
#include <cstdint>
#include <cstdio>

namespace emu::mc {
extern std::uint64_t g_hook_calls;  // the memory checker's count of hook calls inside kernels
}

__global__ void barriers(int rounds, int* sink) {
    int v = threadIdx.x;
    for (int r = 0; r < rounds; ++r) {
        v += r;
        __syncthreads();
    }
    if (v == -1) *sink = v;  // keeps the loop; never true
}

__global__ void staged_copy(const float* in, float* out, int n) {
    __shared__ float stage[256];
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        stage[threadIdx.x] = in[i];
        out[i] = stage[threadIdx.x] * 2.f;
    }
}

namespace {

double cpu_seconds() {
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + ts.tv_nsec * 1e-9;
}

double wall_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

int main() {
    int* sink;
    cudaMalloc(&sink, sizeof(int));
    const int threads = 1024, rounds = 2000, blocks = 4;
    barriers<<<1, threads>>>(10, sink);  // warm-up: stacks mapped and poisoned once
    cudaDeviceSynchronize();
    double c0 = cpu_seconds(), w0 = wall_seconds();
    barriers<<<blocks, threads>>>(rounds, sink);
    cudaDeviceSynchronize();
    double cpu = cpu_seconds() - c0, wall = wall_seconds() - w0;
    const double switches = static_cast<double>(blocks) * threads * (rounds + 1);
    std::printf("fiber switches: %.0f in %.3f s CPU (%.3f s wall): %.1f M switches per CPU-second\n", switches, cpu,
                wall, switches / cpu / 1e6);

    const int n = 1 << 20;
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    cudaMemset(in, 0, n * sizeof(float));
    staged_copy<<<64, 256>>>(in, out, n);  // warm-up: shadow memory mapped
    cudaDeviceSynchronize();
    const std::uint64_t h0 = emu::mc::g_hook_calls;
    c0 = cpu_seconds();
    w0 = wall_seconds();
    staged_copy<<<64, 256>>>(in, out, n);
    cudaDeviceSynchronize();
    cpu = cpu_seconds() - c0;
    wall = wall_seconds() - w0;
    const double hooks = static_cast<double>(emu::mc::g_hook_calls - h0);
    std::printf("checked accesses: %.0f in %.3f s CPU (%.3f s wall): %.1f M checked accesses per CPU-second\n", hooks,
                cpu, wall, hooks / cpu / 1e6);
    return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
