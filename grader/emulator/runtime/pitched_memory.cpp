// Pitched 2D and 3D device memory (cuda_runtime_api.h, "pitched and 3D memory"): cudaMallocPitch and cudaMalloc3D pad
// each row to the device's pitch alignment, as CUDA does, so a kernel that indexes rows by the pitch sees the same
// layout; the set and copy calls work row by row through cudaMemset and cudaMemcpy2D, whose checks (the rows lie in
// one allocation) they keep. CUDA arrays (cudaMemcpy3D to or from a cudaArray) are textures' storage, not emulated.
#include <cstdio>

#include "api_state.hpp"

namespace {

// The pitch an H200 gives (cudaDeviceProp::texturePitchAlignment is 32; cudaMallocPitch rounds rows to 512 bytes).
constexpr std::size_t kPitchAlignment = 512;

std::size_t pitch_for(std::size_t width) { return (width + kPitchAlignment - 1) / kPitchAlignment * kPitchAlignment; }

}  // namespace

using emu::rt::record_error;

cudaError_t cudaMallocPitch(void** ptr, std::size_t* pitch, std::size_t width, std::size_t height) {
    if (!ptr || !pitch) return record_error(cudaErrorInvalidValue);
    *pitch = pitch_for(width);
    return cudaMalloc(ptr, *pitch * height);
}

cudaError_t cudaMemset2D(void* ptr, std::size_t pitch, int value, std::size_t width, std::size_t height) {
    if (height > 1 && width > pitch) return record_error(cudaErrorInvalidValue);
    for (std::size_t r = 0; r < height; ++r) {
        const cudaError_t e = cudaMemset(static_cast<char*>(ptr) + r * pitch, value, width);
        if (e) return e;
    }
    return cudaSuccess;
}
cudaError_t cudaMemset2DAsync(void* ptr, std::size_t pitch, int value, std::size_t width, std::size_t height,
                              cudaStream_t stream) {
    if (!emu::rt::stream_ok(stream)) return record_error(cudaErrorInvalidResourceHandle);
    return cudaMemset2D(ptr, pitch, value, width, height);
}

cudaError_t cudaMalloc3D(cudaPitchedPtr* pitched, cudaExtent extent) {
    if (!pitched) return record_error(cudaErrorInvalidValue);
    const std::size_t pitch = pitch_for(extent.width);
    void* p = nullptr;
    const cudaError_t e = cudaMalloc(&p, pitch * extent.height * extent.depth);
    if (e) return e;
    *pitched = cudaPitchedPtr{p, pitch, extent.width, extent.height};
    return cudaSuccess;
}

cudaError_t cudaMemset3D(cudaPitchedPtr pitched, int value, cudaExtent extent) {
    const std::size_t slice = pitched.pitch * pitched.ysize;
    for (std::size_t z = 0; z < extent.depth; ++z) {
        const cudaError_t e = cudaMemset2D(static_cast<char*>(pitched.ptr) + z * slice, pitched.pitch, value,
                                           extent.width, extent.height);
        if (e) return e;
    }
    return cudaSuccess;
}
cudaError_t cudaMemset3DAsync(cudaPitchedPtr pitched, int value, cudaExtent extent, cudaStream_t stream) {
    if (!emu::rt::stream_ok(stream)) return record_error(cudaErrorInvalidResourceHandle);
    return cudaMemset3D(pitched, value, extent);
}

// Between pitched pointers (device or host) only; the extent is in bytes for the width, in rows and slices for the
// others, as CUDA takes it without arrays; the positions are offsets in bytes, rows and slices.
cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms* p) {
    if (!p) return record_error(cudaErrorInvalidValue);
    if (p->srcArray || p->dstArray) {
        std::fprintf(stderr,
                     "emu: cudaMemcpy3D with a CUDA array is not emulated (CUDA arrays are the storage of textures, "
                     "which the CPU emulator does not have); copy between pitched pointers instead\n");
        return record_error(cudaErrorNotSupported);
    }
    const cudaPitchedPtr& s = p->srcPtr;
    const cudaPitchedPtr& d = p->dstPtr;
    if (!s.ptr || !d.ptr) return record_error(cudaErrorInvalidValue);
    const std::size_t s_slice = s.pitch * s.ysize, d_slice = d.pitch * d.ysize;
    for (std::size_t z = 0; z < p->extent.depth; ++z) {
        const char* src =
            static_cast<const char*>(s.ptr) + (p->srcPos.z + z) * s_slice + p->srcPos.y * s.pitch + p->srcPos.x;
        char* dst = static_cast<char*>(d.ptr) + (p->dstPos.z + z) * d_slice + p->dstPos.y * d.pitch + p->dstPos.x;
        const cudaError_t e = cudaMemcpy2D(dst, d.pitch, src, s.pitch, p->extent.width, p->extent.height, p->kind);
        if (e) return e;
    }
    return cudaSuccess;
}
cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms* p, cudaStream_t stream) {
    if (!emu::rt::stream_ok(stream)) return record_error(cudaErrorInvalidResourceHandle);
    return cudaMemcpy3D(p);
}
