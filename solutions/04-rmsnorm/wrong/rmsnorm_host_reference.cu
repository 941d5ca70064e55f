// Known wrong answer (cheat, gpu-mode's "reading a reference"): copies the data to the host, computes RMSNorm there
// in double precision and copies the result back. The numbers are right; no kernel was written, so only the edit
// check rejects it (veto).
#include <cuda_runtime.h>
#include <cmath>
#include <vector>

void launch_rmsnorm(const float* input, const float* weight, float* output, int M, int N, float eps,
                    cudaStream_t stream) {
    if (M <= 0 || N <= 0) return;
    const size_t count = static_cast<size_t>(M) * N;
    std::vector<float> x(count), w(N), y(count);
    cudaMemcpyAsync(x.data(), input, count * sizeof(float), cudaMemcpyDeviceToHost, stream);
    cudaMemcpyAsync(w.data(), weight, N * sizeof(float), cudaMemcpyDeviceToHost, stream);
    cudaStreamSynchronize(stream);
    for (int r = 0; r < M; ++r) {
        double ss = 0;
        for (int j = 0; j < N; ++j) ss += double(x[size_t(r) * N + j]) * x[size_t(r) * N + j];
        const double inv = 1.0 / std::sqrt(ss / N + eps);
        for (int j = 0; j < N; ++j) y[size_t(r) * N + j] = float(x[size_t(r) * N + j] * inv * w[j]);
    }
    cudaMemcpyAsync(output, y.data(), count * sizeof(float), cudaMemcpyHostToDevice, stream);
    cudaStreamSynchronize(stream);
}
