// CUDA's built-in vector types (char1 … double4, dim3) and their make_* functions, for host compilation.
//
// Sizes and alignments are CUDA's (vector_types.h on 64-bit Linux), not the host's natural ones: a float4 or a
// 16-byte struct read through a misaligned pointer is a fault on the GPU, so the emulator's alignment check must see
// the same alignment requirement a GPU has. tests/types/vector_types_test.cpp pins every one with static_asserts.
#pragma once

// One aggregate per type, so brace initialisation (`float4 v = {1, 2, 3, 4};`) and designated members work as in CUDA.
#define EMU_VEC1(name, T, A) \
    struct alignas(A) name { \
        T x;                 \
    };
#define EMU_VEC2(name, T, A) \
    struct alignas(A) name { \
        T x, y;              \
    };
#define EMU_VEC3(name, T, A) \
    struct alignas(A) name { \
        T x, y, z;           \
    };
#define EMU_VEC4(name, T, A) \
    struct alignas(A) name { \
        T x, y, z, w;        \
    };

// The 3-wide types keep the element's own alignment (12-byte float3, 6-byte short3): CUDA gives them no padding.
EMU_VEC1(char1, signed char, 1)
EMU_VEC2(char2, signed char, 2)
EMU_VEC3(char3, signed char, 1)
EMU_VEC4(char4, signed char, 4)
EMU_VEC1(uchar1, unsigned char, 1)
EMU_VEC2(uchar2, unsigned char, 2)
EMU_VEC3(uchar3, unsigned char, 1)
EMU_VEC4(uchar4, unsigned char, 4)
EMU_VEC1(short1, short, 2)
EMU_VEC2(short2, short, 4)
EMU_VEC3(short3, short, 2)
EMU_VEC4(short4, short, 8)
EMU_VEC1(ushort1, unsigned short, 2)
EMU_VEC2(ushort2, unsigned short, 4)
EMU_VEC3(ushort3, unsigned short, 2)
EMU_VEC4(ushort4, unsigned short, 8)
EMU_VEC1(int1, int, 4)
EMU_VEC2(int2, int, 8)
EMU_VEC3(int3, int, 4)
EMU_VEC4(int4, int, 16)
EMU_VEC1(uint1, unsigned int, 4)
EMU_VEC2(uint2, unsigned int, 8)
EMU_VEC3(uint3, unsigned int, 4)
EMU_VEC4(uint4, unsigned int, 16)
EMU_VEC1(long1, long, 8)
EMU_VEC2(long2, long, 16)
EMU_VEC3(long3, long, 8)
EMU_VEC4(long4, long, 16)
EMU_VEC1(ulong1, unsigned long, 8)
EMU_VEC2(ulong2, unsigned long, 16)
EMU_VEC3(ulong3, unsigned long, 8)
EMU_VEC4(ulong4, unsigned long, 16)
EMU_VEC1(longlong1, long long, 8)
EMU_VEC2(longlong2, long long, 16)
EMU_VEC3(longlong3, long long, 8)
EMU_VEC4(longlong4, long long, 16)
EMU_VEC1(ulonglong1, unsigned long long, 8)
EMU_VEC2(ulonglong2, unsigned long long, 16)
EMU_VEC3(ulonglong3, unsigned long long, 8)
EMU_VEC4(ulonglong4, unsigned long long, 16)
EMU_VEC1(float1, float, 4)
EMU_VEC2(float2, float, 8)
EMU_VEC3(float3, float, 4)
EMU_VEC4(float4, float, 16)
EMU_VEC1(double1, double, 8)
EMU_VEC2(double2, double, 16)
EMU_VEC3(double3, double, 8)
EMU_VEC4(double4, double, 16)
// CUDA 13 deprecates the 4-wide 64-bit types above in favour of these, which say their alignment in the name.
EMU_VEC4(long4_16a, long, 16)
EMU_VEC4(long4_32a, long, 32)
EMU_VEC4(ulong4_16a, unsigned long, 16)
EMU_VEC4(ulong4_32a, unsigned long, 32)
EMU_VEC4(longlong4_16a, long long, 16)
EMU_VEC4(longlong4_32a, long long, 32)
EMU_VEC4(ulonglong4_16a, unsigned long long, 16)
EMU_VEC4(ulonglong4_32a, unsigned long long, 32)
EMU_VEC4(double4_16a, double, 16)
EMU_VEC4(double4_32a, double, 32)

#undef EMU_VEC1
#undef EMU_VEC2
#undef EMU_VEC3
#undef EMU_VEC4

#define EMU_MAKE1(name, T) \
    inline constexpr name make_##name(T x) { return name{x}; }
#define EMU_MAKE2(name, T) \
    inline constexpr name make_##name(T x, T y) { return name{x, y}; }
#define EMU_MAKE3(name, T) \
    inline constexpr name make_##name(T x, T y, T z) { return name{x, y, z}; }
#define EMU_MAKE4(name, T) \
    inline constexpr name make_##name(T x, T y, T z, T w) { return name{x, y, z, w}; }
#define EMU_MAKE_ALL(base, T) \
    EMU_MAKE1(base##1, T)     \
    EMU_MAKE2(base##2, T)     \
    EMU_MAKE3(base##3, T)     \
    EMU_MAKE4(base##4, T)

EMU_MAKE_ALL(char, signed char)
EMU_MAKE_ALL(uchar, unsigned char)
EMU_MAKE_ALL(short, short)
EMU_MAKE_ALL(ushort, unsigned short)
EMU_MAKE_ALL(int, int)
EMU_MAKE_ALL(uint, unsigned int)
EMU_MAKE_ALL(long, long)
EMU_MAKE_ALL(ulong, unsigned long)
EMU_MAKE_ALL(longlong, long long)
EMU_MAKE_ALL(ulonglong, unsigned long long)
EMU_MAKE_ALL(float, float)
EMU_MAKE_ALL(double, double)
EMU_MAKE4(long4_16a, long)
EMU_MAKE4(long4_32a, long)
EMU_MAKE4(ulong4_16a, unsigned long)
EMU_MAKE4(ulong4_32a, unsigned long)
EMU_MAKE4(longlong4_16a, long long)
EMU_MAKE4(longlong4_32a, long long)
EMU_MAKE4(ulonglong4_16a, unsigned long long)
EMU_MAKE4(ulonglong4_32a, unsigned long long)
EMU_MAKE4(double4_16a, double)
EMU_MAKE4(double4_32a, double)

#undef EMU_MAKE_ALL
#undef EMU_MAKE1
#undef EMU_MAKE2
#undef EMU_MAKE3
#undef EMU_MAKE4

// Launch geometry: every component the caller leaves out is 1, and a plain integer converts (`k<<<n, 256>>>`).
struct dim3 {
    unsigned int x, y, z;
    constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr operator uint3() const { return uint3{x, y, z}; }
};
