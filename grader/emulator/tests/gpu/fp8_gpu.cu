// Records what a real GPU computes for cuda_fp8.h's conversions, so the emulator can be checked against hardware
// (compare_fp8.cpp). Build and run on a machine with a GPU:
//
//   nvcc -std=c++17 -O2 -arch=sm_90 -I grader/emulator/tests/gpu grader/emulator/tests/gpu/fp8_gpu.cu -o fp8_gpu
//   ./fp8_gpu gpu-fp8.bin
//
// then, on any machine: build/…/emu_compare_fp8 gpu-fp8.bin. The file's layout is in fp8_format.hpp.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "fp8_format.hpp"
#include "fp8_samples.hpp"

#define CHECK(call)                                                                                       \
    do {                                                                                                  \
        cudaError_t err_ = (call);                                                                        \
        if (err_ != cudaSuccess) {                                                                        \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_)); \
            std::exit(1);                                                                                 \
        }                                                                                                 \
    } while (0)

__device__ void four(std::uint8_t* o, float x) {
    o[0] = __nv_cvt_float_to_fp8(x, __NV_NOSAT, __NV_E4M3);
    o[1] = __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3);
    o[2] = __nv_cvt_float_to_fp8(x, __NV_NOSAT, __NV_E5M2);
    o[3] = __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E5M2);
}

__global__ void widen_kernel(std::uint16_t* out) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 512) return;
    const __nv_fp8_interpretation_t kind = i < 256 ? __NV_E4M3 : __NV_E5M2;
    out[i] = __nv_cvt_fp8_to_halfraw(static_cast<__nv_fp8_storage_t>(i & 0xffu), kind).x;
}

__global__ void from_float_kernel(const std::uint32_t* in, std::uint8_t* out, std::uint32_t n) {
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) four(out + 4 * std::size_t(i), __uint_as_float(in[i]));
}

__global__ void from_16bit_kernel(std::uint8_t* from_half, std::uint8_t* from_bf16) {
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 65536u) return;
    const __half_raw h{static_cast<unsigned short>(i)};
    const __nv_bfloat16_raw b{static_cast<unsigned short>(i)};
    std::uint8_t* oh = from_half + 4 * std::size_t(i);
    std::uint8_t* ob = from_bf16 + 4 * std::size_t(i);
    oh[0] = __nv_cvt_halfraw_to_fp8(h, __NV_NOSAT, __NV_E4M3);
    oh[1] = __nv_cvt_halfraw_to_fp8(h, __NV_SATFINITE, __NV_E4M3);
    oh[2] = __nv_cvt_halfraw_to_fp8(h, __NV_NOSAT, __NV_E5M2);
    oh[3] = __nv_cvt_halfraw_to_fp8(h, __NV_SATFINITE, __NV_E5M2);
    ob[0] = __nv_cvt_bfloat16raw_to_fp8(b, __NV_NOSAT, __NV_E4M3);
    ob[1] = __nv_cvt_bfloat16raw_to_fp8(b, __NV_SATFINITE, __NV_E4M3);
    ob[2] = __nv_cvt_bfloat16raw_to_fp8(b, __NV_NOSAT, __NV_E5M2);
    ob[3] = __nv_cvt_bfloat16raw_to_fp8(b, __NV_SATFINITE, __NV_E5M2);
}

__global__ void from_double_kernel(const std::uint64_t* in, std::uint8_t* out, std::uint32_t n) {
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const double x = __longlong_as_double(static_cast<long long>(in[i]));
    std::uint8_t* o = out + 4 * std::size_t(i);
    o[0] = __nv_cvt_double_to_fp8(x, __NV_NOSAT, __NV_E4M3);
    o[1] = __nv_cvt_double_to_fp8(x, __NV_SATFINITE, __NV_E4M3);
    o[2] = __nv_cvt_double_to_fp8(x, __NV_NOSAT, __NV_E5M2);
    o[3] = __nv_cvt_double_to_fp8(x, __NV_SATFINITE, __NV_E5M2);
}

template <class T>
T* to_device(const std::vector<T>& host) {
    T* dev = nullptr;
    CHECK(cudaMalloc(&dev, host.size() * sizeof(T)));
    CHECK(cudaMemcpy(dev, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
    return dev;
}
template <class T>
std::vector<T> to_host(const T* dev, std::size_t n) {
    std::vector<T> host(n);
    CHECK(cudaMemcpy(host.data(), dev, n * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
}
template <class T>
void put(std::FILE* f, const std::vector<T>& v) {
    if (std::fwrite(v.data(), sizeof(T), v.size(), f) != v.size()) {
        std::perror("write");
        std::exit(1);
    }
}

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s OUTPUT.bin\n", argv[0]);
        return 2;
    }
    std::uint16_t* d_widen;
    CHECK(cudaMalloc(&d_widen, 512 * sizeof(std::uint16_t)));
    widen_kernel<<<2, 256>>>(d_widen);

    const std::vector<std::uint32_t> floats = fp8_samples::floats();
    const auto nf = static_cast<std::uint32_t>(floats.size());
    std::uint32_t* d_floats = to_device(floats);
    std::uint8_t* d_from_float;
    CHECK(cudaMalloc(&d_from_float, 4 * std::size_t(nf)));
    from_float_kernel<<<(nf + 255) / 256, 256>>>(d_floats, d_from_float, nf);

    std::uint8_t *d_from_half, *d_from_bf16;
    CHECK(cudaMalloc(&d_from_half, 4 * 65536));
    CHECK(cudaMalloc(&d_from_bf16, 4 * 65536));
    from_16bit_kernel<<<256, 256>>>(d_from_half, d_from_bf16);

    const std::vector<std::uint64_t> doubles = fp8_samples::doubles();
    const auto nd = static_cast<std::uint32_t>(doubles.size());
    std::uint64_t* d_doubles = to_device(doubles);
    std::uint8_t* d_from_double;
    CHECK(cudaMalloc(&d_from_double, 4 * std::size_t(nd)));
    from_double_kernel<<<(nd + 255) / 256, 256>>>(d_doubles, d_from_double, nd);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    std::FILE* f = std::fopen(argv[1], "wb");
    if (!f) {
        std::perror(argv[1]);
        return 1;
    }
    std::fwrite(fp8_format::kMagic, 1, sizeof fp8_format::kMagic, f);
    put(f, to_host(d_widen, 512));
    put(f, std::vector<std::uint32_t>{nf});
    put(f, to_host(d_from_float, 4 * std::size_t(nf)));
    put(f, to_host(d_from_half, 4 * 65536));
    put(f, to_host(d_from_bf16, 4 * 65536));
    put(f, std::vector<std::uint32_t>{nd});
    put(f, to_host(d_from_double, 4 * std::size_t(nd)));
    std::fclose(f);
    std::printf("wrote %s: 512 widenings, %u floats, 65536 halves and bfloat16s, %u doubles, 4 conversions each\n",
                argv[1], nf, nd);
    return 0;
}
