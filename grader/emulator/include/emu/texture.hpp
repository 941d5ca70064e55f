// Texture and surface objects for emulator builds: CUDA arrays (cudaMallocArray, 1D and 2D), texture objects over an
// array, linear memory or pitched 2D memory (cudaCreateTextureObject), and 2D surface objects over an array, read in
// kernels with tex1Dfetch, tex1D, tex2D, surf1Dread/surf2Dread and written with surf1Dwrite/surf2Dwrite.
//
// What a texture unit does is done here in software, as CUDA documents it (Programming Guide, "Texture Fetching"):
// point and linear filtering (the linear weights in 1.8 fixed point, as the hardware keeps them, so results match a GPU
// to about 1/256 of the texel difference), the wrap, clamp, mirror and border address modes (wrap and mirror with
// normalized coordinates, as CUDA allows), unnormalized and normalized coordinates, and the element-type and
// normalized-float read modes (8- and 16-bit integers read as [0, 1] or [-1, 1]). A tex1Dfetch past linear memory
// reads 0, as on a GPU. A CUDA array's storage is device memory from cudaMalloc, so a kernel's fetches are checked
// reads of it (a surface write and a texture read of one array in the same launch are a race, as on a GPU, where the
// texture cache is not coherent with the writes). Not emulated: 3D, layered, cubemap and mipmapped arrays, texture
// gather, sRGB, anisotropy, the legacy texture references (`texture<float, 2>`): refused at compile time by name.
#pragma once

#include <emu/api.h>
#include <emu/unchecked.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <vector>

enum cudaChannelFormatKind {
    cudaChannelFormatKindSigned = 0,
    cudaChannelFormatKindUnsigned = 1,
    cudaChannelFormatKindFloat = 2,
    cudaChannelFormatKindNone = 3
};
struct cudaChannelFormatDesc {
    int x, y, z, w;
    cudaChannelFormatKind f;
};
inline cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f) {
    return cudaChannelFormatDesc{x, y, z, w, f};
}

namespace emu::tex {
// The channel layout of a texel type: its scalar, the count of channels, and the kind.
template <class T>
struct Channels {
    using scalar = T;
    static constexpr int count = 1;
};
#define EMU_TEX_VECTOR(V, S, N)         \
    template <>                         \
    struct Channels<V> {                \
        using scalar = S;               \
        static constexpr int count = N; \
    };
EMU_TEX_VECTOR(char1, signed char, 1)
EMU_TEX_VECTOR(char2, signed char, 2)
EMU_TEX_VECTOR(char4, signed char, 4)
EMU_TEX_VECTOR(uchar1, unsigned char, 1)
EMU_TEX_VECTOR(uchar2, unsigned char, 2)
EMU_TEX_VECTOR(uchar4, unsigned char, 4)
EMU_TEX_VECTOR(short1, short, 1)
EMU_TEX_VECTOR(short2, short, 2)
EMU_TEX_VECTOR(short4, short, 4)
EMU_TEX_VECTOR(ushort1, unsigned short, 1)
EMU_TEX_VECTOR(ushort2, unsigned short, 2)
EMU_TEX_VECTOR(ushort4, unsigned short, 4)
EMU_TEX_VECTOR(int1, int, 1)
EMU_TEX_VECTOR(int2, int, 2)
EMU_TEX_VECTOR(int4, int, 4)
EMU_TEX_VECTOR(uint1, unsigned, 1)
EMU_TEX_VECTOR(uint2, unsigned, 2)
EMU_TEX_VECTOR(uint4, unsigned, 4)
EMU_TEX_VECTOR(float1, float, 1)
EMU_TEX_VECTOR(float2, float, 2)
EMU_TEX_VECTOR(float4, float, 4)
#undef EMU_TEX_VECTOR
}  // namespace emu::tex

template <class T>
cudaChannelFormatDesc cudaCreateChannelDesc() {
    using S = typename emu::tex::Channels<T>::scalar;
    static_assert(std::is_arithmetic_v<S> && sizeof(S) <= 4, "cudaCreateChannelDesc: a texel type of CUDA's");
    constexpr int bits = 8 * sizeof(S), n = emu::tex::Channels<T>::count;
    const cudaChannelFormatKind kind = std::is_floating_point_v<S> ? cudaChannelFormatKindFloat
                                       : std::is_signed_v<S>       ? cudaChannelFormatKindSigned
                                                                   : cudaChannelFormatKindUnsigned;
    return cudaChannelFormatDesc{bits, n > 1 ? bits : 0, n > 2 ? bits : 0, n > 3 ? bits : 0, kind};
}

struct cudaArray {
    cudaChannelFormatDesc desc;
    std::size_t width, height;  // height 0 for a 1D array
    std::size_t texel_bytes;
    unsigned char* data;  // device memory (cudaMalloc), width * max(height, 1) texels, rows packed
};
typedef cudaArray* cudaArray_t;
typedef const cudaArray* cudaArray_const_t;

#define cudaArrayDefault 0x00
#define cudaArraySurfaceLoadStore 0x02

enum cudaResourceType {
    cudaResourceTypeArray = 0,
    cudaResourceTypeMipmappedArray = 1,
    cudaResourceTypeLinear = 2,
    cudaResourceTypePitch2D = 3
};
struct cudaMipmappedArray;
typedef cudaMipmappedArray* cudaMipmappedArray_t;
struct cudaResourceDesc {
    cudaResourceType resType;
    union {
        struct {
            cudaArray_t array;
        } array;
        struct {
            cudaMipmappedArray_t mipmap;
        } mipmap;
        struct {
            void* devPtr;
            cudaChannelFormatDesc desc;
            std::size_t sizeInBytes;
        } linear;
        struct {
            void* devPtr;
            cudaChannelFormatDesc desc;
            std::size_t width;
            std::size_t height;
            std::size_t pitchInBytes;
        } pitch2D;
    } res;
    unsigned flags;
};
enum cudaTextureAddressMode {
    cudaAddressModeWrap = 0,
    cudaAddressModeClamp = 1,
    cudaAddressModeMirror = 2,
    cudaAddressModeBorder = 3
};
enum cudaTextureFilterMode { cudaFilterModePoint = 0, cudaFilterModeLinear = 1 };
enum cudaTextureReadMode { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
struct cudaTextureDesc {
    cudaTextureAddressMode addressMode[3];
    cudaTextureFilterMode filterMode;
    cudaTextureReadMode readMode;
    int sRGB;
    float borderColor[4];
    int normalizedCoords;
    unsigned maxAnisotropy;
    cudaTextureFilterMode mipmapFilterMode;
    float mipmapLevelBias;
    float minMipmapLevelClamp;
    float maxMipmapLevelClamp;
    int disableTrilinearOptimization;
    int seamlessCubemap;
};
struct cudaResourceViewDesc;
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;
enum cudaSurfaceBoundaryMode { cudaBoundaryModeZero = 0, cudaBoundaryModeClamp = 1, cudaBoundaryModeTrap = 2 };

namespace emu::tex {

struct Object {
    bool live = false, surface = false;
    cudaResourceDesc res{};
    cudaTextureDesc tex{};
    // What the fetches read: the first texel, the row pitch in bytes, the size in texels, the texel's bytes.
    const unsigned char* base = nullptr;
    std::size_t pitch = 0, width = 0, height = 0, texel_bytes = 0;
    cudaChannelFormatDesc desc{};
};
// Objects by handle (handle = index + 1, so that 0 is never valid). Inline: one table for the whole program.
// EMU_UNCHECKED: a fetch inside a kernel reaches the table through here, and the static's guard (host memory) would
// otherwise be refused as a kernel's access to the host.
EMU_UNCHECKED inline std::vector<Object>& objects() {
    static std::vector<Object> table;
    return table;
}
// A fetch inside a kernel reads the table through std::vector's own (instrumented) members, so the table and the
// vector that holds it are registered as memory kernels may reach (runtime/kernel_reach.cpp), as the texture unit's
// state is on a GPU; called on the host after each object is made, when the vector may have moved its elements.
inline void let_kernels_read_table() {
    static bool vector_registered = false;
    static const void* elements = nullptr;
    auto& t = objects();
    if (!vector_registered) emu::register_device_range(&t, sizeof t);
    vector_registered = true;
    if (elements == t.data()) return;
    if (elements) emu::unregister_device_range(elements);
    elements = t.data();
    emu::register_device_range(elements, t.capacity() * sizeof(Object));
}
inline std::size_t texel_bytes(const cudaChannelFormatDesc& d) {
    return static_cast<std::size_t>(d.x + d.y + d.z + d.w) / 8;
}
inline int channel_count(const cudaChannelFormatDesc& d) { return (d.x > 0) + (d.y > 0) + (d.z > 0) + (d.w > 0); }
inline bool valid_desc(const cudaChannelFormatDesc& d) {
    const int n = channel_count(d);
    if (n == 0 || n == 3 || d.f == cudaChannelFormatKindNone) return false;
    const int bits[4] = {d.x, d.y, d.z, d.w};
    for (int c = 0; c < n; ++c)
        if (bits[c] != d.x || (d.x != 8 && d.x != 16 && d.x != 32)) return false;
    return d.f != cudaChannelFormatKindFloat || d.x == 32;  // half-float channels are not emulated
}
// The object a kernel names (a copy: the table is host memory, which the texture unit's own state stands for and the
// memory checker must not take for the kernel's reads; hence no instrumentation here), or a trap (an invalid handle
// faults on a GPU too).
__attribute__((no_sanitize("thread"))) inline Object object(unsigned long long handle, bool surface, const char* file,
                                                            int line) {
    auto& t = objects();
    if (handle == 0 || handle > t.size() || !t[handle - 1].live || t[handle - 1].surface != surface) {
        std::fprintf(stderr, "emu: %s:%d: %s object %llu does not exist (never created, or destroyed)\n", file, line,
                     surface ? "surface" : "texture", handle);
        __trap(file, line);
    }
    return t[handle - 1];
}

// One channel of a texel as float: its value, or (normalized read mode) its value scaled to [0, 1] or [-1, 1].
inline float channel(const unsigned char* texel, const cudaChannelFormatDesc& d, int c, bool normalized) {
    const int bytes = d.x / 8;
    const unsigned char* p = texel + c * bytes;
    if (d.f == cudaChannelFormatKindFloat) {
        float v;
        std::memcpy(&v, p, 4);
        return v;
    }
    if (d.f == cudaChannelFormatKindUnsigned) {
        std::uint32_t v = 0;
        std::memcpy(&v, p, static_cast<std::size_t>(bytes));
        return normalized ? static_cast<float>(v) / static_cast<float>((1ull << d.x) - 1) : static_cast<float>(v);
    }
    std::int32_t v = 0;
    if (bytes == 1) v = *reinterpret_cast<const signed char*>(p);
    else if (bytes == 2) v = *reinterpret_cast<const short*>(p);
    else std::memcpy(&v, p, 4);
    if (!normalized) return static_cast<float>(v);
    return std::fmax(-1.0f, static_cast<float>(v) / static_cast<float>((1ull << (d.x - 1)) - 1));
}

// A texel index along one axis under an address mode, or -1 for the border.
inline long long address(long long i, long long n, cudaTextureAddressMode mode) {
    if (i >= 0 && i < n) return i;
    switch (mode) {
        case cudaAddressModeWrap: return ((i % n) + n) % n;
        case cudaAddressModeMirror: {
            const long long period = 2 * n, m = ((i % period) + period) % period;
            return m < n ? m : period - 1 - m;
        }
        case cudaAddressModeBorder: return -1;
        default: return i < 0 ? 0 : n - 1;
    }
}

// The texel at (x, y) as floats, every channel (the border color outside, in border mode).
inline void texel_floats(const Object& o, long long x, long long y, float (&out)[4], bool normalized) {
    const long long ix = address(x, static_cast<long long>(o.width), o.tex.addressMode[0]);
    const long long iy = o.height ? address(y, static_cast<long long>(o.height), o.tex.addressMode[1]) : 0;
    const int n = channel_count(o.desc);
    if (ix < 0 || iy < 0) {
        for (int c = 0; c < 4; ++c) out[c] = o.tex.borderColor[c];
        return;
    }
    const unsigned char* t =
        o.base + static_cast<std::size_t>(iy) * o.pitch + static_cast<std::size_t>(ix) * o.texel_bytes;
    for (int c = 0; c < 4; ++c) out[c] = c < n ? channel(t, o.desc, c, normalized) : 0.0f;
}

// The linear filter's weight, in the 1.8 fixed point the texture unit keeps.
inline float weight(float frac) { return std::round(frac * 256.0f) / 256.0f; }

template <class T>
T from_floats(const float (&v)[4]) {
    if constexpr (std::is_arithmetic_v<T>) {
        return static_cast<T>(v[0]);
    } else {
        using S = typename Channels<T>::scalar;
        T r{};
        S* s = reinterpret_cast<S*>(&r);
        for (int c = 0; c < Channels<T>::count; ++c) s[c] = static_cast<S>(v[c]);
        return r;
    }
}

// A fetch at texel coordinates (unnormalized, before the half-texel shift of linear filtering).
template <class T>
T fetch(const Object& o, float x, float y, bool two_d, const char* file, int line) {
    const bool normalized_read =
        o.tex.readMode == cudaReadModeNormalizedFloat && o.desc.f != cudaChannelFormatKindFloat;
    if (!normalized_read && sizeof(T) != o.texel_bytes) {
        std::fprintf(stderr,
                     "emu: %s:%d: a texture fetch returns a %zu-byte type from %zu-byte texels (the read mode is the "
                     "element type: the fetch's type must be the texel's)\n",
                     file, line, sizeof(T), o.texel_bytes);
        __trap(file, line);
    }
    if (o.tex.normalizedCoords) {
        x *= static_cast<float>(o.width);
        y *= static_cast<float>(o.height);
    }
    float v[4];
    if (o.tex.filterMode == cudaFilterModePoint) {
        texel_floats(o, static_cast<long long>(std::floor(x)), static_cast<long long>(std::floor(y)), v,
                     normalized_read);
        if (!normalized_read) {  // the texel's own bytes, whatever its type
            const long long ix =
                address(static_cast<long long>(std::floor(x)), static_cast<long long>(o.width), o.tex.addressMode[0]);
            const long long iy = two_d ? address(static_cast<long long>(std::floor(y)),
                                                 static_cast<long long>(o.height), o.tex.addressMode[1])
                                       : 0;
            if (ix >= 0 && iy >= 0) {
                T r;
                std::memcpy(
                    &r, o.base + static_cast<std::size_t>(iy) * o.pitch + static_cast<std::size_t>(ix) * o.texel_bytes,
                    sizeof(T));
                return r;
            }
        }
        return from_floats<T>(v);
    }
    const float xb = x - 0.5f, yb = y - 0.5f;
    const long long x0 = static_cast<long long>(std::floor(xb)), y0 = static_cast<long long>(std::floor(yb));
    const float a = weight(xb - std::floor(xb)), b = two_d ? weight(yb - std::floor(yb)) : 0.0f;
    float t00[4], t10[4], t01[4], t11[4];
    texel_floats(o, x0, y0, t00, normalized_read);
    texel_floats(o, x0 + 1, y0, t10, normalized_read);
    if (two_d) {
        texel_floats(o, x0, y0 + 1, t01, normalized_read);
        texel_floats(o, x0 + 1, y0 + 1, t11, normalized_read);
    }
    for (int c = 0; c < 4; ++c) {
        const float row0 = (1 - a) * t00[c] + a * t10[c];
        v[c] = two_d ? (1 - b) * row0 + b * ((1 - a) * t01[c] + a * t11[c]) : row0;
    }
    return from_floats<T>(v);
}

inline unsigned char* surface_texel(const Object& o, int x_bytes, int y, cudaSurfaceBoundaryMode mode,
                                    std::size_t bytes, const char* file, int line) {
    long long x = x_bytes;
    if (x % static_cast<long long>(o.texel_bytes) != 0 || bytes != o.texel_bytes) {
        std::fprintf(stderr,
                     "emu: %s:%d: a surface access of %zu bytes at byte %d: x is in bytes and must be a multiple of "
                     "the %zu-byte texel, and the value one texel\n",
                     file, line, bytes, x_bytes, o.texel_bytes);
        __trap(file, line);
    }
    x /= static_cast<long long>(o.texel_bytes);
    const long long w = static_cast<long long>(o.width), h = static_cast<long long>(o.height ? o.height : 1);
    if (x < 0 || x >= w || y < 0 || y >= h) {
        if (mode == cudaBoundaryModeZero) return nullptr;
        if (mode == cudaBoundaryModeClamp) {
            x = x < 0 ? 0 : (x >= w ? w - 1 : x);
            y = y < 0 ? 0 : (y >= h ? static_cast<int>(h - 1) : y);
        } else {
            std::fprintf(stderr, "emu: %s:%d: surface access at texel (%lld, %d) outside the %lld x %lld array\n", file,
                         line, x, y, w, h);
            __trap(file, line);
        }
    }
    return const_cast<unsigned char*>(o.base) + static_cast<std::size_t>(y) * o.pitch +
           static_cast<std::size_t>(x) * o.texel_bytes;
}

}  // namespace emu::tex

// ---- CUDA arrays ---------------------------------------------------------------------------------------------------
inline cudaError_t cudaMallocArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, std::size_t width,
                                   std::size_t height = 0, unsigned /*flags*/ = 0) {
    if (!array || !desc || !emu::tex::valid_desc(*desc) || width == 0) return cudaErrorInvalidValue;
    auto* a = new cudaArray{*desc, width, height, emu::tex::texel_bytes(*desc), nullptr};
    void* p = nullptr;
    if (cudaError_t e = cudaMalloc(&p, width * (height ? height : 1) * a->texel_bytes); e != cudaSuccess) {
        delete a;
        return e;
    }
    a->data = static_cast<unsigned char*>(p);
    *array = a;
    return cudaSuccess;
}
inline cudaError_t cudaFreeArray(cudaArray_t array) {
    if (!array) return cudaSuccess;
    const cudaError_t e = cudaFree(array->data);
    delete array;
    return e;
}
inline cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc* desc, cudaExtent* extent, unsigned* flags,
                                    cudaArray_t array) {
    if (!array) return cudaErrorInvalidValue;
    if (desc) *desc = array->desc;
    if (extent) *extent = make_cudaExtent(array->width, array->height, 0);
    if (flags) *flags = 0;
    return cudaSuccess;
}
// Rows of `width` bytes at (w_offset bytes, h_offset rows) of the array, from memory rows `spitch` bytes apart.
inline cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, std::size_t w_offset, std::size_t h_offset, const void* src,
                                       std::size_t spitch, std::size_t width, std::size_t height, cudaMemcpyKind kind) {
    if (!dst) return cudaErrorInvalidValue;
    const std::size_t row = dst->width * dst->texel_bytes, rows = dst->height ? dst->height : 1;
    if (w_offset + width > row || h_offset + height > rows) return cudaErrorInvalidValue;
    return cudaMemcpy2D(dst->data + h_offset * row + w_offset, row, src, spitch, width, height,
                        kind == cudaMemcpyDeviceToDevice ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice);
}
inline cudaError_t cudaMemcpy2DFromArray(void* dst, std::size_t dpitch, cudaArray_const_t src, std::size_t w_offset,
                                         std::size_t h_offset, std::size_t width, std::size_t height,
                                         cudaMemcpyKind kind) {
    if (!src) return cudaErrorInvalidValue;
    const std::size_t row = src->width * src->texel_bytes, rows = src->height ? src->height : 1;
    if (w_offset + width > row || h_offset + height > rows) return cudaErrorInvalidValue;
    return cudaMemcpy2D(dst, dpitch, src->data + h_offset * row + w_offset, row, width, height,
                        kind == cudaMemcpyDeviceToDevice ? cudaMemcpyDeviceToDevice : cudaMemcpyDeviceToHost);
}
// The deprecated forms: `count` bytes from (w_offset bytes, h_offset rows), row after row.
inline cudaError_t cudaMemcpyToArray(cudaArray_t dst, std::size_t w_offset, std::size_t h_offset, const void* src,
                                     std::size_t count, cudaMemcpyKind kind) {
    if (!dst) return cudaErrorInvalidValue;
    const std::size_t row = dst->width * dst->texel_bytes, at = h_offset * row + w_offset;
    if (at + count > row * (dst->height ? dst->height : 1)) return cudaErrorInvalidValue;
    return cudaMemcpy(dst->data + at, src, count,
                      kind == cudaMemcpyDeviceToDevice ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice);
}
inline cudaError_t cudaMemcpyFromArray(void* dst, cudaArray_const_t src, std::size_t w_offset, std::size_t h_offset,
                                       std::size_t count, cudaMemcpyKind kind) {
    if (!src) return cudaErrorInvalidValue;
    const std::size_t row = src->width * src->texel_bytes, at = h_offset * row + w_offset;
    if (at + count > row * (src->height ? src->height : 1)) return cudaErrorInvalidValue;
    return cudaMemcpy(dst, src->data + at, count,
                      kind == cudaMemcpyDeviceToDevice ? cudaMemcpyDeviceToDevice : cudaMemcpyDeviceToHost);
}

// ---- texture and surface objects -------------------------------------------------------------------------------
inline cudaError_t emu_create_object(unsigned long long* handle, const cudaResourceDesc* res,
                                     const cudaTextureDesc* tex, bool surface) {
    if (!handle || !res) return cudaErrorInvalidValue;
    emu::tex::Object o;
    o.live = true;
    o.surface = surface;
    o.res = *res;
    if (tex) o.tex = *tex;
    switch (res->resType) {
        case cudaResourceTypeArray: {
            const cudaArray* a = res->res.array.array;
            if (!a) return cudaErrorInvalidValue;
            o.base = a->data;
            o.desc = a->desc;
            o.width = a->width;
            o.height = a->height;
            o.texel_bytes = a->texel_bytes;
            o.pitch = a->width * a->texel_bytes;
            break;
        }
        case cudaResourceTypeLinear:
            if (surface || !res->res.linear.devPtr || !emu::tex::valid_desc(res->res.linear.desc))
                return cudaErrorInvalidValue;
            o.base = static_cast<const unsigned char*>(res->res.linear.devPtr);
            o.desc = res->res.linear.desc;
            o.texel_bytes = emu::tex::texel_bytes(o.desc);
            o.width = res->res.linear.sizeInBytes / o.texel_bytes;
            o.pitch = res->res.linear.sizeInBytes;
            break;
        case cudaResourceTypePitch2D:
            if (surface || !res->res.pitch2D.devPtr || !emu::tex::valid_desc(res->res.pitch2D.desc))
                return cudaErrorInvalidValue;
            o.base = static_cast<const unsigned char*>(res->res.pitch2D.devPtr);
            o.desc = res->res.pitch2D.desc;
            o.texel_bytes = emu::tex::texel_bytes(o.desc);
            o.width = res->res.pitch2D.width;
            o.height = res->res.pitch2D.height;
            o.pitch = res->res.pitch2D.pitchInBytes;
            if (o.pitch < o.width * o.texel_bytes) return cudaErrorInvalidValue;
            break;
        default:
            std::fprintf(stderr,
                         "emu: mipmapped arrays are not emulated; cudaCreate%sObject fails with "
                         "cudaErrorNotSupported\n",
                         surface ? "Surface" : "Texture");
            return cudaErrorNotSupported;
    }
    if (!surface && o.tex.filterMode == cudaFilterModeLinear && o.desc.f != cudaChannelFormatKindFloat &&
        o.tex.readMode != cudaReadModeNormalizedFloat)
        return cudaErrorInvalidValue;  // CUDA: linear filtering needs float texels or the normalized-float read mode
    auto& t = emu::tex::objects();
    t.push_back(o);
    *handle = t.size();
    emu::tex::let_kernels_read_table();
    return cudaSuccess;
}
inline cudaError_t cudaCreateTextureObject(cudaTextureObject_t* tex, const cudaResourceDesc* res,
                                           const cudaTextureDesc* desc, const cudaResourceViewDesc* view) {
    if (!desc) return cudaErrorInvalidValue;
    if (view) {
        std::fprintf(stderr,
                     "emu: texture resource views are not emulated; cudaCreateTextureObject fails with "
                     "cudaErrorNotSupported\n");
        return cudaErrorNotSupported;
    }
    return emu_create_object(tex, res, desc, false);
}
inline cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t* surf, const cudaResourceDesc* res) {
    if (!res || res->resType != cudaResourceTypeArray) return cudaErrorInvalidValue;
    return emu_create_object(surf, res, nullptr, true);
}
inline cudaError_t emu_destroy_object(unsigned long long handle, bool surface) {
    auto& t = emu::tex::objects();
    if (handle == 0 || handle > t.size() || !t[handle - 1].live || t[handle - 1].surface != surface)
        return cudaErrorInvalidValue;
    t[handle - 1].live = false;
    return cudaSuccess;
}
inline cudaError_t cudaDestroyTextureObject(cudaTextureObject_t tex) { return emu_destroy_object(tex, false); }
inline cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surf) { return emu_destroy_object(surf, true); }
inline cudaError_t cudaGetTextureObjectResourceDesc(cudaResourceDesc* res, cudaTextureObject_t tex) {
    auto& t = emu::tex::objects();
    if (!res || tex == 0 || tex > t.size() || !t[tex - 1].live) return cudaErrorInvalidValue;
    *res = t[tex - 1].res;
    return cudaSuccess;
}

// ---- fetches (device code) ---------------------------------------------------------------------------------------
template <class T>
T tex1Dfetch(cudaTextureObject_t tex, int x, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    const emu::tex::Object o = emu::tex::object(tex, false, file, line);
    if (x < 0 || static_cast<std::size_t>(x) >= o.width) return T{};  // past linear memory: zero, as a GPU reads
    emu::tex::Object point = o;
    point.tex.filterMode = cudaFilterModePoint;  // tex1Dfetch never filters
    point.tex.normalizedCoords = 0;
    return emu::tex::fetch<T>(point, static_cast<float>(x), 0.0f, false, file, line);
}
template <class T>
T tex1D(cudaTextureObject_t tex, float x, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    return emu::tex::fetch<T>(emu::tex::object(tex, false, file, line), x, 0.0f, false, file, line);
}
template <class T>
T tex2D(cudaTextureObject_t tex, float x, float y, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    return emu::tex::fetch<T>(emu::tex::object(tex, false, file, line), x, y, true, file, line);
}
template <class T>
void tex2D(T* out, cudaTextureObject_t tex, float x, float y, const char* file = __builtin_FILE(),
           int line = __builtin_LINE()) {
    *out = tex2D<T>(tex, x, y, file, line);
}
template <class T>
void surf2Dwrite(T value, cudaSurfaceObject_t surf, int x_bytes, int y,
                 cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap, const char* file = __builtin_FILE(),
                 int line = __builtin_LINE()) {
    const emu::tex::Object o = emu::tex::object(surf, true, file, line);
    if (unsigned char* p = emu::tex::surface_texel(o, x_bytes, y, mode, sizeof(T), file, line))
        *reinterpret_cast<T*>(p) = value;
}
template <class T>
T surf2Dread(cudaSurfaceObject_t surf, int x_bytes, int y, cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,
             const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    const emu::tex::Object o = emu::tex::object(surf, true, file, line);
    const unsigned char* p = emu::tex::surface_texel(o, x_bytes, y, mode, sizeof(T), file, line);
    return p ? *reinterpret_cast<const T*>(p) : T{};
}
template <class T>
void surf2Dread(T* out, cudaSurfaceObject_t surf, int x_bytes, int y,
                cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap, const char* file = __builtin_FILE(),
                int line = __builtin_LINE()) {
    *out = surf2Dread<T>(surf, x_bytes, y, mode, file, line);
}
template <class T>
void surf1Dwrite(T value, cudaSurfaceObject_t surf, int x_bytes, cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,
                 const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    surf2Dwrite(value, surf, x_bytes, 0, mode, file, line);
}
template <class T>
T surf1Dread(cudaSurfaceObject_t surf, int x_bytes, cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,
             const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    return surf2Dread<T>(surf, x_bytes, 0, mode, file, line);
}
