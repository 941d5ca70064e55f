// Not a test: the memory checker's cost on the lesson's kernel shape (two-pass fp32 RMSNorm, one block per row).
// Built twice (programs.cmake): with the emulator's flags, and without -fsanitize=thread (no hooks at all).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace emu::mc {
extern std::uint64_t g_hook_calls;
}

template <int BLOCK>
__global__ void rms_kernel(const float* in, const float* w, float* out, int n, float eps) {
    __shared__ float warp_sums[BLOCK / 32];
    __shared__ float inv_rms;
    const float* row = in + static_cast<long long>(blockIdx.x) * n;
    float sq = 0.f;
    for (int i = threadIdx.x; i < n; i += BLOCK) sq += row[i] * row[i];
    for (int o = 16; o > 0; o /= 2) sq += __shfl_xor_sync(0xffffffffu, sq, o);
    if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = sq;
    __syncthreads();
    if (threadIdx.x == 0) {
        float t = 0.f;
        for (int k = 0; k < BLOCK / 32; ++k) t += warp_sums[k];
        inv_rms = rsqrtf(t / n + eps);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < n; i += BLOCK)
        out[static_cast<long long>(blockIdx.x) * n + i] = row[i] * inv_rms * w[i];
}

int main() {
    const int m = 64, n = 4096;
    std::vector<float> x(static_cast<std::size_t>(m) * n, 0.5f), w(n, 2.f);
    float *dx, *dw, *dy;
    cudaMalloc(&dx, x.size() * sizeof(float));
    cudaMalloc(&dw, w.size() * sizeof(float));
    cudaMalloc(&dy, x.size() * sizeof(float));
    cudaMemcpy(dx, x.data(), x.size() * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dw, w.data(), w.size() * sizeof(float), cudaMemcpyHostToDevice);
    rms_kernel<256><<<m, 256>>>(dx, dw, dy, n, 1e-6f);  // warm-up (stacks, symbolizer-free path)
    cudaDeviceSynchronize();
    const std::uint64_t calls0 = emu::mc::g_hook_calls;
    const int reps = 5;
    const auto t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r) rms_kernel<256><<<m, 256>>>(dx, dw, dy, n, 1e-6f);
    cudaDeviceSynchronize();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const std::uint64_t calls = emu::mc::g_hook_calls - calls0;
    std::printf("%d launches of %dx%d: %.1f ms per launch; %llu hook calls in kernels (%.1f M/s of run time)\n", reps,
                m, n, 1e3 * s / reps, static_cast<unsigned long long>(calls), calls / s / 1e6);
    return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
