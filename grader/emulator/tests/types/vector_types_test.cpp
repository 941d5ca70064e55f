// Vector types: CUDA's sizes and alignments (vector_types.h, 64-bit Linux), make_* and dim3.
#include <vector_functions.h>
#include <vector_types.h>

#include "workbook_catch.hpp"

#define EXPECT_LAYOUT(T, size, align) \
    static_assert(sizeof(T) == (size) && alignof(T) == (align), #T " must be " #size " bytes, " #align "-aligned")

EXPECT_LAYOUT(char1, 1, 1);
EXPECT_LAYOUT(char2, 2, 2);
EXPECT_LAYOUT(char3, 3, 1);
EXPECT_LAYOUT(char4, 4, 4);
EXPECT_LAYOUT(uchar1, 1, 1);
EXPECT_LAYOUT(uchar2, 2, 2);
EXPECT_LAYOUT(uchar3, 3, 1);
EXPECT_LAYOUT(uchar4, 4, 4);
EXPECT_LAYOUT(short1, 2, 2);
EXPECT_LAYOUT(short2, 4, 4);
EXPECT_LAYOUT(short3, 6, 2);
EXPECT_LAYOUT(short4, 8, 8);
EXPECT_LAYOUT(ushort1, 2, 2);
EXPECT_LAYOUT(ushort2, 4, 4);
EXPECT_LAYOUT(ushort3, 6, 2);
EXPECT_LAYOUT(ushort4, 8, 8);
EXPECT_LAYOUT(int1, 4, 4);
EXPECT_LAYOUT(int2, 8, 8);
EXPECT_LAYOUT(int3, 12, 4);
EXPECT_LAYOUT(int4, 16, 16);
EXPECT_LAYOUT(uint1, 4, 4);
EXPECT_LAYOUT(uint2, 8, 8);
EXPECT_LAYOUT(uint3, 12, 4);
EXPECT_LAYOUT(uint4, 16, 16);
EXPECT_LAYOUT(long1, 8, 8);
EXPECT_LAYOUT(long2, 16, 16);
EXPECT_LAYOUT(long3, 24, 8);
EXPECT_LAYOUT(long4, 32, 16);
EXPECT_LAYOUT(ulong1, 8, 8);
EXPECT_LAYOUT(ulong2, 16, 16);
EXPECT_LAYOUT(ulong3, 24, 8);
EXPECT_LAYOUT(ulong4, 32, 16);
EXPECT_LAYOUT(longlong1, 8, 8);
EXPECT_LAYOUT(longlong2, 16, 16);
EXPECT_LAYOUT(longlong3, 24, 8);
EXPECT_LAYOUT(longlong4, 32, 16);
EXPECT_LAYOUT(ulonglong1, 8, 8);
EXPECT_LAYOUT(ulonglong2, 16, 16);
EXPECT_LAYOUT(ulonglong3, 24, 8);
EXPECT_LAYOUT(ulonglong4, 32, 16);
EXPECT_LAYOUT(float1, 4, 4);
EXPECT_LAYOUT(float2, 8, 8);
EXPECT_LAYOUT(float3, 12, 4);
EXPECT_LAYOUT(float4, 16, 16);
EXPECT_LAYOUT(double1, 8, 8);
EXPECT_LAYOUT(double2, 16, 16);
EXPECT_LAYOUT(double3, 24, 8);
EXPECT_LAYOUT(double4, 32, 16);
EXPECT_LAYOUT(long4_16a, 32, 16);
EXPECT_LAYOUT(long4_32a, 32, 32);
EXPECT_LAYOUT(ulonglong4_16a, 32, 16);
EXPECT_LAYOUT(ulonglong4_32a, 32, 32);
EXPECT_LAYOUT(double4_16a, 32, 16);
EXPECT_LAYOUT(double4_32a, 32, 32);
EXPECT_LAYOUT(dim3, 12, 4);

TEST_CASE("make_* fill the members in order", "[types][vector]") {
    const float4 f = make_float4(1.0f, 2.0f, 3.0f, 4.0f);
    REQUIRE((f.x == 1.0f && f.y == 2.0f && f.z == 3.0f && f.w == 4.0f));
    const int2 i = make_int2(-7, 9);
    REQUIRE((i.x == -7 && i.y == 9));
    const uchar3 u = make_uchar3(1, 2, 255);
    REQUIRE((u.x == 1 && u.y == 2 && u.z == 255));
    const double2 d = make_double2(0.5, -0.25);
    REQUIRE((d.x == 0.5 && d.y == -0.25));
    const ulonglong2 l = make_ulonglong2(1ull << 40, 3);
    REQUIRE((l.x == (1ull << 40) && l.y == 3));
    const uint4 v = {1u, 2u, 3u, 4u};  // aggregate initialisation works as in CUDA
    REQUIRE(v.w == 4u);
}

TEST_CASE("dim3 defaults to 1 and converts from integers and uint3", "[types][vector]") {
    const dim3 a;
    REQUIRE((a.x == 1 && a.y == 1 && a.z == 1));
    const dim3 b = 256;
    REQUIRE((b.x == 256 && b.y == 1 && b.z == 1));
    const dim3 c(4, 5);
    REQUIRE((c.x == 4 && c.y == 5 && c.z == 1));
    const uint3 u = make_uint3(7, 8, 9);
    const dim3 d = u;
    REQUIRE((d.x == 7 && d.y == 8 && d.z == 9));
    const uint3 back = c;
    REQUIRE((back.x == 4 && back.y == 5 && back.z == 1));
}
