// A local read before it is written holds the emulator's poison (a NaN as a float) in every CUDA thread, whatever the
// launch path ran before the kernel's frame: by name (the rewriter's closure), through a pointer to the kernel, and
// with a by-bytes struct parameter. Session 9 found the launch path's own checked reads of the parameters leaving
// pointers where the kernel's locals then lay, so a wrong answer that forgot `= 0.0f` passed every test.
#include <cmath>
#include <cstdio>

struct Scale {
    float factor;
    int pad[7];
};

__global__ void by_name(float* out) {
    float sum;  // never written: the bug this test stands for
    out[threadIdx.x] = sum;
}
__global__ void by_bytes(float* out, Scale s) {
    float sum;
    out[threadIdx.x] = sum * s.factor;
}

int main() {
    float* out;
    cudaMalloc(&out, 3 * 64 * sizeof(float));
    by_name<<<1, 64>>>(out);
    void (*k)(float*) = by_name;
    k<<<1, 64>>>(out + 64);
    by_bytes<<<1, 64>>>(out + 128, Scale{2.0f, {}});
    float h[3 * 64];
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    int poisoned = 0;
    for (float v : h) poisoned += std::isnan(v) ? 1 : 0;
    std::printf("%d of %d uninitialized reads are the poison\n%s\n", poisoned, 3 * 64,
                poisoned == 3 * 64 ? "PASS" : "FAIL");
    cudaFree(out);
    return 0;
}
