// Benchmark (not a test): context-switch cost, and the lesson's RMSNorm kernel shape (one 256-thread block per row,
// 10 shuffles and 2 barriers per row) over 4096 rows. Run: emu_exec_bench [rows] [hidden]
#include <time.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "exec_helpers.hpp"
#include "fiber.hpp"

namespace {

// CPU time of this process: the machine is shared, so wall time measures the neighbours as much as the engine.
double cpu_now() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + ts.tv_nsec * 1e-9;
}

struct Timer {
    std::chrono::steady_clock::time_point wall0 = std::chrono::steady_clock::now();
    double cpu0 = cpu_now();
    double wall() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count(); }
    double cpu() const { return cpu_now() - cpu0; }
};

emu::rt::FiberContext g_main, g_fiber;
long g_switches = 0;

void ping(void*) {
    for (;;) {
        ++g_switches;
        emu::rt::fiber_switch(g_fiber, g_main);
    }
}

constexpr int kBlock = 256;
float g_smem[kBlock / 32];  // the kernel's __shared__ arrays (blocks run one at a time)
float g_inv;

float warp_sum(float v) {
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

void rmsnorm_row(const float* in, const float* w, float* out, int n, float eps) {
    const int row = blockIdx.x, tid = threadIdx.x;
    const float* x = in + static_cast<long>(row) * n;
    float* y = out + static_cast<long>(row) * n;
    float sq = 0;
    for (int c = tid; c < n; c += kBlock) sq += x[c] * x[c];
    sq = warp_sum(sq);
    if (tid % 32 == 0) g_smem[tid / 32] = sq;
    __syncthreads();
    sq = tid < kBlock / 32 ? g_smem[tid] : 0.0f;
    if (tid < 32) sq = warp_sum(sq);
    if (tid == 0) g_inv = 1.0f / std::sqrt(sq / n + eps);
    __syncthreads();
    const float inv = g_inv;
    for (int c = tid; c < n; c += kBlock) y[c] = x[c] * inv * w[c];
}

}  // namespace

int main(int argc, char** argv) {
    const int rows = argc > 1 ? std::atoi(argv[1]) : 4096;
    const int n = argc > 2 ? std::atoi(argv[2]) : 1024;

    // 1. Raw switch: main -> fiber -> main.
    emu::rt::fiber_prepare(g_fiber, emu::rt::fiber_stack(0), &ping, nullptr);
    const long rounds = 20000000;
    Timer t_sw;
    for (long i = 0; i < rounds; ++i) emu::rt::fiber_switch(g_main, g_fiber);
    std::printf("context switch: %.2f ns CPU per switch (%ld round trips: %.3f s CPU, %.3f s wall)\n",
                t_sw.cpu() / (2.0 * rounds) * 1e9, rounds, t_sw.cpu(), t_sw.wall());

    // 2. A warp collective through the scheduler: 1024 threads x 2000 __syncwarp.
    Timer t_sync;
    exec_test::launch(1, 1024, [] {
        for (int i = 0; i < 2000; ++i) __syncwarp();
    });
    std::printf("__syncwarp through the scheduler: %.2f ns CPU per thread per call (%.3f s wall)\n",
                t_sync.cpu() / (1024.0 * 2000) * 1e9, t_sync.wall());

    // 3. The lesson's kernel shape.
    std::vector<float> in(static_cast<std::size_t>(rows) * n), w(n), out(in.size());
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>((i * 2654435761u) % 1000) / 500.0f - 1.0f;
    for (int i = 0; i < n; ++i) w[i] = 1.0f + i % 7 * 0.125f;
    Timer t_k;
    ::emu::launch(
        "rmsnorm_kernel", [&](auto&&...) { rmsnorm_row(in.data(), w.data(), out.data(), n, 1e-6f); }, rows, kBlock)();
    const double k = t_k.cpu(), k_wall = t_k.wall();
    if (cudaGetLastError() != cudaSuccess) return 1;
    // Check one row against a plain loop so the timing is of a correct run.
    double sq = 0;
    for (int c = 0; c < n; ++c) sq += static_cast<double>(in[c]) * in[c];
    const double inv = 1.0 / std::sqrt(sq / n + 1e-6);
    const double err = std::fabs(out[5] - in[5] * inv * w[5]);
    std::printf(
        "lesson kernel, %d rows x %d, 256 threads/row: %.3f s CPU (%.3f s wall), %.2f us CPU per block, "
        "check error %.2e\n",
        rows, n, k, k_wall, k / rows * 1e6, err);
    return err < 1e-4 ? 0 : 1;
}
