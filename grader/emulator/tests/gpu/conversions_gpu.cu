// Records what a real GPU computes for CUDA's half/bf16 conversions and basic arithmetic, so the emulator can be
// checked against hardware (compare_conversions.cpp). Build and run on a machine with a GPU:
//
//   nvcc -std=c++17 -O2 -arch=sm_90 -I grader/emulator/tests/gpu grader/emulator/tests/gpu/conversions_gpu.cu \
//        -o conversions_gpu && ./conversions_gpu gpu-conversions.bin
//
// then, on any machine: build/…/emu_compare_conversions gpu-conversions.bin
// The layout of the file is in conversions_format.hpp.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "conversion_samples.hpp"
#include "conversions_format.hpp"

#define CHECK(call)                                                                                       \
    do {                                                                                                  \
        cudaError_t err_ = (call);                                                                        \
        if (err_ != cudaSuccess) {                                                                        \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_)); \
            std::exit(1);                                                                                 \
        }                                                                                                 \
    } while (0)

__global__ void from_float_kernel(const std::uint32_t* in, std::uint16_t* out, std::uint32_t n) {
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float f = __uint_as_float(in[i]);
    std::uint16_t* o = out + std::size_t(i) * conv_format::kConversions;
    o[0] = __bfloat16_as_ushort(__float2bfloat16_rn(f));
    o[1] = __bfloat16_as_ushort(__float2bfloat16_rz(f));
    o[2] = __bfloat16_as_ushort(__float2bfloat16_rd(f));
    o[3] = __bfloat16_as_ushort(__float2bfloat16_ru(f));
    o[4] = __half_as_ushort(__float2half_rn(f));
    o[5] = __half_as_ushort(__float2half_rz(f));
    o[6] = __half_as_ushort(__float2half_rd(f));
    o[7] = __half_as_ushort(__float2half_ru(f));
}

__global__ void to_float_kernel(std::uint32_t* bf16_out, std::uint32_t* half_out) {
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 65536u) return;
    bf16_out[i] = __float_as_uint(__bfloat162float(__ushort_as_bfloat16(static_cast<unsigned short>(i))));
    half_out[i] = __float_as_uint(__half2float(__ushort_as_half(static_cast<unsigned short>(i))));
}

template <class T, T (*FromBits)(unsigned short), unsigned short (*ToBits)(T)>
__global__ void ops_kernel(const std::uint16_t* in, std::uint16_t* out, std::uint32_t n) {
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const T a = FromBits(in[3 * i]), b = FromBits(in[3 * i + 1]), c = FromBits(in[3 * i + 2]);
    std::uint16_t* o = out + std::size_t(i) * conv_format::kOps;
    o[0] = ToBits(__hadd(a, b));
    o[1] = ToBits(__hsub(a, b));
    o[2] = ToBits(__hmul(a, b));
    o[3] = ToBits(__hfma(a, b, c));
    o[4] = ToBits(__hdiv(a, b));
    o[5] = ToBits(hsqrt(a));
    o[6] = ToBits(__hmax(a, b));
    o[7] = ToBits(__hmin(a, b));
    o[8] = ToBits(__hneg(a));
    o[9] = ToBits(__habs(a));
}

__device__ __half half_from_bits(unsigned short b) { return __ushort_as_half(b); }
__device__ unsigned short half_bits(__half h) { return __half_as_ushort(h); }
__device__ __nv_bfloat16 bf16_from_bits(unsigned short b) { return __ushort_as_bfloat16(b); }
__device__ unsigned short bf16_bits(__nv_bfloat16 h) { return __bfloat16_as_ushort(h); }

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
    const std::vector<std::uint32_t> floats = conv_samples::float_samples();
    const std::uint32_t n = static_cast<std::uint32_t>(floats.size());
    std::uint32_t* d_floats = to_device(floats);
    std::uint16_t* d_conv = nullptr;
    CHECK(cudaMalloc(&d_conv, std::size_t(n) * conv_format::kConversions * sizeof(std::uint16_t)));
    from_float_kernel<<<(n + 255) / 256, 256>>>(d_floats, d_conv, n);
    CHECK(cudaGetLastError());

    std::uint32_t *d_bf, *d_h;
    CHECK(cudaMalloc(&d_bf, 65536 * sizeof(std::uint32_t)));
    CHECK(cudaMalloc(&d_h, 65536 * sizeof(std::uint32_t)));
    to_float_kernel<<<256, 256>>>(d_bf, d_h);
    CHECK(cudaGetLastError());

    const std::uint32_t n_ops = conv_format::kOpsCount;
    const std::vector<std::uint16_t> half_in = conv_samples::operand_triples(n_ops, conv_format::kHalfSeed);
    const std::vector<std::uint16_t> bf16_in = conv_samples::operand_triples(n_ops, conv_format::kBF16Seed);
    std::uint16_t* d_half_in = to_device(half_in);
    std::uint16_t* d_bf16_in = to_device(bf16_in);
    std::uint16_t *d_half_out, *d_bf16_out;
    CHECK(cudaMalloc(&d_half_out, std::size_t(n_ops) * conv_format::kOps * sizeof(std::uint16_t)));
    CHECK(cudaMalloc(&d_bf16_out, std::size_t(n_ops) * conv_format::kOps * sizeof(std::uint16_t)));
    ops_kernel<__half, half_from_bits, half_bits><<<(n_ops + 255) / 256, 256>>>(d_half_in, d_half_out, n_ops);
    CHECK(cudaGetLastError());
    ops_kernel<__nv_bfloat16, bf16_from_bits, bf16_bits><<<(n_ops + 255) / 256, 256>>>(d_bf16_in, d_bf16_out, n_ops);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    std::FILE* f = std::fopen(argv[1], "wb");
    if (!f) {
        std::perror(argv[1]);
        return 1;
    }
    std::fwrite(conv_format::kMagic, 1, sizeof conv_format::kMagic, f);
    put(f, std::vector<std::uint32_t>{n});
    put(f, floats);
    put(f, to_host(d_conv, std::size_t(n) * conv_format::kConversions));
    put(f, to_host(d_bf, 65536));
    put(f, to_host(d_h, 65536));
    put(f, std::vector<std::uint32_t>{n_ops});
    put(f, half_in);
    put(f, to_host(d_half_out, std::size_t(n_ops) * conv_format::kOps));
    put(f, bf16_in);
    put(f, to_host(d_bf16_out, std::size_t(n_ops) * conv_format::kOps));
    std::fclose(f);
    std::printf("wrote %s: %u floats, 65536 bf16 + 65536 half patterns, %u operand triples per type\n", argv[1], n,
                n_ops);
    return 0;
}
