// The reference kernels and the roofline copy as a C library, so that peers.py can time them with its own harness
// (torch's CUDA graphs and events) beside torch and Triton: the same timing code for every kernel of a comparison,
// so that a gap between the C++ driver's figures and Python's is not read as a gap between kernels.
//
//   nvcc -shared -Xcompiler -fPIC -o libbench04_ref.so peer_bridge.cu ../kernels/rmsnorm.cu ../../common/copies.cu
//   peers.py --ref-lib libbench04_ref.so ...
// Host code; every launch goes on the caller's stream (torch's current stream, a capturing one included).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstddef>

#include "../../common/copies.h"
#include "../kernels/reference.h"

extern "C" {

// RMSNorm of M contiguous rows of N elements with the reference rule; dtype 0 fp32, 1 bf16, 2 fp16. Returns 0, or 1
// for an unknown dtype or a launch error.
int bench04_ref_rmsnorm(int dtype, const void* x, const void* w, void* y, int M, int N, float eps, void* stream) {
    const auto st = static_cast<cudaStream_t>(stream);
    const long long s = N;
    switch (dtype) {
        case 0:
            ref_rmsnorm_fp32(static_cast<const float*>(x), s, static_cast<const float*>(w), static_cast<float*>(y), s,
                             M, N, eps, st);
            break;
        case 1:
            ref_rmsnorm_bf16(static_cast<const __nv_bfloat16*>(x), s, static_cast<const __nv_bfloat16*>(w),
                             static_cast<__nv_bfloat16*>(y), s, M, N, eps, st);
            break;
        case 2:
            ref_rmsnorm_fp16(static_cast<const __half*>(x), s, static_cast<const __half*>(w), static_cast<__half*>(y),
                             s, M, N, eps, st);
            break;
        default: return 1;
    }
    return cudaGetLastError() == cudaSuccess ? 0 : 1;
}

// The benchmark's copy (16-byte loads and stores, grid-stride): `bytes`, a multiple of 16, from src to dst.
int bench04_copy(void* dst, const void* src, size_t bytes, void* stream) {
    bench::copy_kernel(dst, src, bytes, static_cast<cudaStream_t>(stream));
    return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
}
