// A kernel may write its own stack (its locals, as a GPU thread its local memory), but not the return addresses and
// saved frame pointers there: with a pointer made from a local's address it found its return address (a code address
// near its own) and set it to another function, which then ran when the kernel returned (until session 10: the
// watchdog reported the endless loop of `elsewhere`). "device" does the same from a device function. Each must be an
// illegal address.
#include <cstdio>
#include <cstring>

__device__ int g_hit;

__device__ __noinline__ void elsewhere() {
    g_hit = 1;  // reached only through a forged return
    for (;;) {
    }
}

__device__ __noinline__ void redirect(unsigned long self) {
    unsigned long x = 0;
    unsigned long* p = &x;
    for (int i = 1; i < 64; ++i) {
        const unsigned long v = p[i];
        if (v > self - 65536 && v < self + 65536 && v != self) {  // a code address near the kernel: a return address
            p[i] = reinterpret_cast<unsigned long>(&elsewhere);
            return;
        }
    }
}

__global__ void hijack(float* out, int how) {
    if (how == 0) {
        redirect(reinterpret_cast<unsigned long>(&hijack));
    } else {
        unsigned long x = 0;
        unsigned long* p = &x;
        const unsigned long self = reinterpret_cast<unsigned long>(&hijack);
        for (int i = 1; i < 64; ++i)
            if (p[i] > self - 65536 && p[i] < self + 65536 && p[i] != self) {
                p[i] = reinterpret_cast<unsigned long>(&elsewhere);
                break;
            }
    }
    out[threadIdx.x] = 1.f;
}

int main(int argc, char** argv) {
    const char* mode = argc > 1 ? argv[1] : "kernel";
    const int how = std::strcmp(mode, "device") == 0 ? 0 : 1;
    float* d;
    cudaMalloc(&d, 4 * sizeof(float));
    hijack<<<1, 1>>>(d, how);
    const cudaError_t e = cudaDeviceSynchronize();
    int hit = 0;
    cudaMemcpyFromSymbol(&hit, g_hit, sizeof hit);
    std::printf("launch: %s\n", cudaGetErrorName(e));
    return std::puts(e == cudaSuccess || hit ? "FAIL: the return went elsewhere" : "REPORTED"), 0;
}
