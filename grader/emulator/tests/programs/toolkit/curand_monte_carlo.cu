// cuRAND as tutorials use it: a kernel gives each thread its own XORWOW state (curand_init(seed, thread, 0, …)) and
// estimates pi by Monte Carlo; the host API fills device memory with uniform and normal numbers. Checked: the
// estimate and the moments within statistical bounds; a thread's numbers equal those of the same (seed, subsequence,
// offset) drawn on the host, whatever the thread order; a start at offset k equals k draws from offset 0 (the skip's
// matrix powers against plain stepping).
#include <cuda_runtime.h>
#include <curand.h>
#include <curand_kernel.h>

#include <cmath>
#include <cstdio>
#include <vector>

#define CURAND_CALL(x)                                                 \
    do {                                                               \
        if ((x) != CURAND_STATUS_SUCCESS) {                            \
            std::printf("cuRAND error at %s:%d\n", __FILE__, __LINE__); \
            return 1;                                                  \
        }                                                              \
    } while (0)

__global__ void setup(curandState* states, unsigned long long seed) {
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curand_init(seed, id, 0, &states[id]);
}

__global__ void count_inside(curandState* states, unsigned* inside, unsigned* first, int samples) {
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curandState local = states[id];
    first[id] = curand(&local);
    unsigned hits = 0;
    for (int i = 0; i < samples; ++i) {
        float x = curand_uniform(&local), y = curand_uniform(&local);
        if (x * x + y * y <= 1.0f) ++hits;
    }
    states[id] = local;
    atomicAdd(inside, hits);
}

int main() {
    const int blocks = 8, threads = 64, n = blocks * threads, samples = 200;
    const unsigned long long seed = 1234;
    curandState* states;
    unsigned *inside, *first;
    cudaMalloc(&states, n * sizeof(curandState));
    cudaMalloc(&inside, sizeof(unsigned));
    cudaMalloc(&first, n * sizeof(unsigned));
    cudaMemset(inside, 0, sizeof(unsigned));
    setup<<<blocks, threads>>>(states, seed);
    count_inside<<<blocks, threads>>>(states, inside, first, samples);
    unsigned hits = 0;
    std::vector<unsigned> firsts(n);
    cudaMemcpy(&hits, inside, sizeof hits, cudaMemcpyDeviceToHost);
    cudaMemcpy(firsts.data(), first, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
    int bad = cudaGetLastError() == cudaSuccess ? 0 : 1;

    const double total = double(n) * samples, p = M_PI / 4;
    const double pi = 4.0 * hits / total, sigma = 4.0 * std::sqrt(p * (1 - p) / total);
    if (std::fabs(pi - M_PI) > 5 * sigma) {
        std::printf("pi estimate %f is more than 5 sigma (%f) from pi\n", pi, sigma);
        ++bad;
    }
    for (int id : {0, 1, 63, 200, n - 1}) {  // the same sequences, drawn on the host
        curandState s;
        curand_init(seed, id, 0, &s);
        if (curand(&s) != firsts[id]) {
            std::printf("thread %d's first number differs from the host's\n", id);
            ++bad;
        }
    }
    curandState stepped, skipped;
    curand_init(seed, 5, 0, &stepped);
    for (int i = 0; i < 1000; ++i) curand(&stepped);
    curand_init(seed, 5, 1000, &skipped);
    for (int i = 0; i < 4; ++i)
        if (curand(&stepped) != curand(&skipped)) {
            std::printf("offset 1000 differs from 1000 steps\n");
            ++bad;
            break;
        }

    // The host API: uniform and normal numbers in device memory.
    const size_t m = 20000;
    float* d_values;
    cudaMalloc(&d_values, m * sizeof(float));
    curandGenerator_t gen;
    CURAND_CALL(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT));
    CURAND_CALL(curandSetPseudoRandomGeneratorSeed(gen, 42ULL));
    CURAND_CALL(curandGenerateUniform(gen, d_values, m));
    std::vector<float> values(m);
    cudaMemcpy(values.data(), d_values, m * sizeof(float), cudaMemcpyDeviceToHost);
    double mean = 0;
    for (float v : values) {
        if (!(v > 0.0f && v <= 1.0f)) ++bad;
        mean += v / m;
    }
    if (std::fabs(mean - 0.5) > 5 * std::sqrt(1.0 / 12 / m)) {
        std::printf("uniform mean %f\n", mean);
        ++bad;
    }
    CURAND_CALL(curandGenerateNormal(gen, d_values, m, 2.0f, 3.0f));
    cudaMemcpy(values.data(), d_values, m * sizeof(float), cudaMemcpyDeviceToHost);
    double sum = 0, sq = 0;
    for (float v : values) {
        sum += v;
        sq += double(v) * v;
    }
    const double nmean = sum / m, nvar = sq / m - nmean * nmean;
    if (std::fabs(nmean - 2.0) > 5 * 3.0 / std::sqrt(double(m)) || std::fabs(nvar / 9.0 - 1.0) > 0.05) {
        std::printf("normal mean %f, variance %f\n", nmean, nvar);
        ++bad;
    }
    if (curandGenerateNormal(gen, d_values, 3, 0.0f, 1.0f) != CURAND_STATUS_LENGTH_NOT_MULTIPLE) ++bad;
    CURAND_CALL(curandDestroyGenerator(gen));
    std::printf("pi ~ %.4f (%u of %.0f inside)\n", pi, hits, total);
    cudaFree(states);
    cudaFree(inside);
    cudaFree(first);
    cudaFree(d_values);
    std::printf("%s\n", bad == 0 ? "Test PASSED" : "Test FAILED");
    return bad == 0 ? 0 : 1;
}
