// A planted bug: the classic first CUDA mistake, a kernel given the host's std::vector data instead of a device
// copy. On a GPU the kernel faults (cudaErrorIllegalAddress); the emulator, whose threads run in the host process,
// must say so instead of reading the host's memory. "fixed" copies the data to the device first and also uses every
// memory a kernel may legitimately reach outside cudaMalloc: a __device__ variable (written and read), a __constant__
// table, a __managed__ counter, memory registered with cudaHostRegister, a string literal, a constant table of a
// device function, a by-value struct parameter, its own locals and a block of the device heap (malloc in a kernel);
// none may be refused. "forged" writes through a
// pointer to a host variable made from an integer (docs/security.md: the memory checker's own state lies in host
// memory too): an illegal address. "forged_free" and "forged_delete" free a host heap block from a kernel, through an
// address passed as an integer: a kernel may free only the device heap's own blocks, so each is an illegal address and
// the host block stays allocated and intact (until session 10 the C library's free released it).
#include <cstdio>
#include <cstring>
#include <vector>

struct Scale {
    float factor;
    int pad[7];  // a parameter larger than two registers: passed in memory
};

__device__ float g_total;
__constant__ float c_offsets[4] = {0.f, 1.f, 2.f, 3.f};
__managed__ int m_blocks;
unsigned long g_host_word;  // host memory: no kernel may touch it

__device__ float table_lookup(int i) {
    static const float kTable[4] = {10.f, 20.f, 30.f, 40.f};
    return kTable[i & 3];
}

__global__ void add_offsets(const float* in, float* out, int n, Scale s, unsigned* registered) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const char* tag = "ok";
    float local[2] = {s.factor, 0.f};
    if (i < n) {
        out[i] = in[i] * local[0] + c_offsets[i & 3] + table_lookup(i) * (tag[0] == 'o');
        atomicAdd(&g_total, out[i]);
        atomicAdd(registered, 1u);
    }
    if (threadIdx.x == 0) atomicAdd(&m_blocks, 1);
}

// CUDA's device heap: malloc and free inside a kernel.
__global__ void scratch_sum(float* out) {
    float* scratch = static_cast<float*>(malloc(4 * sizeof(float)));
    for (int i = 0; i < 4; ++i) scratch[i] = static_cast<float>(i + threadIdx.x);
    out[threadIdx.x] = scratch[0] + scratch[1] + scratch[2] + scratch[3];
    free(scratch);
}

__global__ void forge(unsigned long address) { *reinterpret_cast<unsigned long*>(address) = 1; }

__global__ void forge_free(unsigned long address) { free(reinterpret_cast<void*>(address)); }
__global__ void forge_delete(unsigned long address) { delete reinterpret_cast<unsigned long*>(address); }
// "forged_printf": printf's %n writes a host variable (device printf is the C library's, uninstrumented): refused,
// the variable unchanged. "fixed" also prints from a kernel.
__global__ void forge_printf(unsigned long address) {
    const char format[5] = {37, 104, 104, 110, 0};  // "%hhn": the C library's printf writes through its argument
    printf(format, reinterpret_cast<unsigned long*>(address));
}
__global__ void say(int n) { printf("%s %d %.1f %c%%\n", "device printf:", n, 0.5, 'x'); }

int main(int argc, char** argv) {
    const char* mode = argc > 1 ? argv[1] : "bug";
    std::printf("host pointer (%s): a kernel reaches only what a GPU kernel can\n", mode);
    const int n = 256;
    std::vector<float> h(n, 1.f);
    float* d_out;
    cudaMalloc(&d_out, n * sizeof(float));
    if (std::strcmp(mode, "forged") == 0) {
        forge<<<1, 1>>>(reinterpret_cast<unsigned long>(&g_host_word));
        const cudaError_t e = cudaDeviceSynchronize();
        std::printf("launch: %s\n", cudaGetErrorName(e));
        return std::puts(e == cudaSuccess || g_host_word ? "FAIL: the forged write went through" : "REPORTED"), 0;
    }
    if (std::strcmp(mode, "forged_printf") == 0) {
        forge_printf<<<1, 1>>>(reinterpret_cast<unsigned long>(&g_host_word));
        const cudaError_t e = cudaDeviceSynchronize();
        std::printf("launch: %s\n", cudaGetErrorName(e));
        return std::puts(e == cudaSuccess || g_host_word ? "FAIL: the forged write went through" : "REPORTED"), 0;
    }
    if (std::strcmp(mode, "forged_free") == 0 || std::strcmp(mode, "forged_delete") == 0) {
        // Two host blocks of the same size: the C library hands a freed block back at once, so a free that went
        // through shows as `again` taking the victim's place.
        unsigned long* victim = new unsigned long(42);
        if (mode[7] == 'f') forge_free<<<1, 1>>>(reinterpret_cast<unsigned long>(victim));
        else forge_delete<<<1, 1>>>(reinterpret_cast<unsigned long>(victim));
        const cudaError_t e = cudaDeviceSynchronize();
        std::printf("launch: %s\n", cudaGetErrorName(e));
        unsigned long* again = new unsigned long(7);
        const bool freed = again == victim || *victim != 42;
        return std::puts(e == cudaSuccess || freed ? "FAIL: the kernel freed host memory" : "REPORTED"), 0;
    }
    unsigned* counter = new unsigned(0);
    cudaHostRegister(counter, sizeof *counter, cudaHostRegisterDefault);
    const Scale s{2.f, {}};
    if (std::strcmp(mode, "fixed") != 0) {
        add_offsets<<<1, n>>>(h.data(), d_out, n, s, counter);  // the bug: a host pointer
        const cudaError_t e = cudaDeviceSynchronize();
        std::printf("launch: %s\n", cudaGetErrorName(e));
        return std::puts(e == cudaSuccess ? "FAIL: the host pointer went unreported" : "REPORTED"), 0;
    }
    float* d_in;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMemcpy(d_in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    add_offsets<<<2, n / 2>>>(d_in, d_out, n, s, counter);
    if (cudaDeviceSynchronize() != cudaSuccess) return std::puts("FAIL: the launch failed"), 1;
    std::vector<float> out(n);
    cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
    float total = 0.f, expect = 0.f;
    cudaMemcpyFromSymbol(&total, g_total, sizeof total);
    for (int i = 0; i < n; ++i) {
        const float want = 2.f + static_cast<float>(i & 3) + 10.f * static_cast<float>((i & 3) + 1);
        if (out[i] != want) return std::printf("FAIL: out[%d] = %g, not %g\n", i, out[i], want), 1;
        expect += want;
    }
    if (total != expect || m_blocks != 2 || *counter != static_cast<unsigned>(n))
        return std::printf("FAIL: total %g (want %g), blocks %d, counter %u\n", total, expect, m_blocks, *counter), 1;
    say<<<1, 1>>>(7);
    if (cudaDeviceSynchronize() != cudaSuccess) return std::puts("FAIL: device printf failed"), 1;
    scratch_sum<<<1, 8>>>(d_out);
    if (cudaDeviceSynchronize() != cudaSuccess) return std::puts("FAIL: the device heap's launch failed"), 1;
    cudaMemcpy(out.data(), d_out, 8 * sizeof(float), cudaMemcpyDeviceToHost);
    for (int t = 0; t < 8; ++t)
        if (out[t] != static_cast<float>(6 + 4 * t)) return std::printf("FAIL: scratch sum %d = %g\n", t, out[t]), 1;
    std::puts("PASS");
    return 0;
}
