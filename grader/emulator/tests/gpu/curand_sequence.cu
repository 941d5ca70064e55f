// The first numbers of cuRAND's XORWOW device generator for a few (seed, subsequence, offset) triples, one line each,
// so that the emulator's curand_kernel.h can be compared with NVIDIA's on a GPU (curand_sequence.sh runs both and
// diffs them). Built by nvcc (a GPU) or by emu-nvcc (the emulator); the same text is expected from both. curand() and
// curand_uniform() are exact integer and float arithmetic; curand_normal's sine, cosine and logarithm are the GPU's
// fast ones there and the C library's here, so its last bits may differ (printed with 6 significant digits).
#include <cuda_runtime.h>
#include <curand_kernel.h>

#include <cstdio>

struct Triple {
    unsigned long long seed, subsequence, offset;
};
__constant__ Triple kTriples[6] = {
    {0, 0, 0}, {1234, 0, 0}, {1234, 1, 0}, {1234, 77, 5}, {0xdeadbeefcafeULL, 3, 1000}, {42, 1000000, 123456789}};

__global__ void draw(unsigned* ints, float* uniforms, float* normals) {
    const int t = threadIdx.x;
    curandState s;
    curand_init(kTriples[t].seed, kTriples[t].subsequence, kTriples[t].offset, &s);
    for (int i = 0; i < 4; ++i) ints[t * 4 + i] = curand(&s);
    for (int i = 0; i < 2; ++i) uniforms[t * 2 + i] = curand_uniform(&s);
    for (int i = 0; i < 2; ++i) normals[t * 2 + i] = curand_normal(&s);
}

int main() {
    unsigned* ints;
    float *uniforms, *normals;
    cudaMallocManaged(&ints, 6 * 4 * sizeof(unsigned));
    cudaMallocManaged(&uniforms, 6 * 2 * sizeof(float));
    cudaMallocManaged(&normals, 6 * 2 * sizeof(float));
    draw<<<1, 6>>>(ints, uniforms, normals);
    if (cudaDeviceSynchronize() != cudaSuccess) return 1;
    for (int t = 0; t < 6; ++t)
        std::printf("%u %u %u %u %.9g %.9g %.6g %.6g\n", ints[t * 4], ints[t * 4 + 1], ints[t * 4 + 2], ints[t * 4 + 3],
                    uniforms[t * 2], uniforms[t * 2 + 1], normals[t * 2], normals[t * 2 + 1]);
    return 0;
}
