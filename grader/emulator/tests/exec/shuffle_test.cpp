// Warp shuffles against the PTX shfl.sync rules, written out per case rather than computed the engine's way.
#include <cuda_fp16.h>

#include <cstring>

#include "workbook_catch.hpp"
#include "exec_helpers.hpp"

using exec_test::launch;
using exec_test::linear_tid;

namespace {

// Runs one 64-thread block (two warps) where every thread shuffles `value(tid)` and records what it received.
template <class F>
std::vector<int> shuffle_results(F shuffle) {
    exec_test::reset_device();
    std::vector<int> out(64, -1);
    launch(1, 64, [&] {
        const unsigned t = linear_tid();
        out[t] = shuffle(static_cast<int>(100 + t));
    });
    REQUIRE(cudaGetLastError() == cudaSuccess);
    REQUIRE(emu::take_diagnostics().empty());
    return out;
}

}  // namespace

TEST_CASE("shfl idx: whole warp, segments of 16 and 8, source lanes past the segment wrap inside it") {
    auto r32 = shuffle_results([](int v) { return __shfl_sync(0xffffffffu, v, 5); });
    for (int t = 0; t < 64; ++t) CHECK(r32[t] == 100 + (t / 32) * 32 + 5);

    auto r16 = shuffle_results([](int v) { return __shfl_sync(0xffffffffu, v, 3, 16); });
    for (int t = 0; t < 64; ++t) CHECK(r16[t] == 100 + (t / 16) * 16 + 3);

    // srcLane 10 with width 8: only the low 3 bits select inside the segment (lane 2 of each segment).
    auto r8 = shuffle_results([](int v) { return __shfl_sync(0xffffffffu, v, 10, 8); });
    for (int t = 0; t < 64; ++t) CHECK(r8[t] == 100 + (t / 8) * 8 + 2);

    // srcLane 37 with the whole warp: lane 5.
    auto r37 = shuffle_results([](int v) { return __shfl_sync(0xffffffffu, v, 37); });
    for (int t = 0; t < 64; ++t) CHECK(r37[t] == 100 + (t / 32) * 32 + 5);

    // Each lane may name a different source: a rotation by one.
    auto rot = shuffle_results([](int v) { return __shfl_sync(0xffffffffu, v, (threadIdx.x + 1) % 32); });
    for (int t = 0; t < 64; ++t) CHECK(rot[t] == 100 + (t / 32) * 32 + (t % 32 + 1) % 32);
}

TEST_CASE("shfl up: lanes below delta in their segment keep their own value") {
    auto r = shuffle_results([](int v) { return __shfl_up_sync(0xffffffffu, v, 3); });
    for (int t = 0; t < 64; ++t) CHECK(r[t] == (t % 32 >= 3 ? 100 + t - 3 : 100 + t));

    auto r8 = shuffle_results([](int v) { return __shfl_up_sync(0xffffffffu, v, 2, 8); });
    for (int t = 0; t < 64; ++t) CHECK(r8[t] == (t % 8 >= 2 ? 100 + t - 2 : 100 + t));

    auto r0 = shuffle_results([](int v) { return __shfl_up_sync(0xffffffffu, v, 0); });
    for (int t = 0; t < 64; ++t) CHECK(r0[t] == 100 + t);
}

TEST_CASE("shfl down: lanes whose source passes the segment end keep their own value") {
    auto r = shuffle_results([](int v) { return __shfl_down_sync(0xffffffffu, v, 16); });
    for (int t = 0; t < 64; ++t) CHECK(r[t] == (t % 32 + 16 < 32 ? 100 + t + 16 : 100 + t));

    auto r16 = shuffle_results([](int v) { return __shfl_down_sync(0xffffffffu, v, 5, 16); });
    for (int t = 0; t < 64; ++t) CHECK(r16[t] == (t % 16 + 5 < 16 ? 100 + t + 5 : 100 + t));

    // delta 8 in segments of 8: every lane is past the end.
    auto r8 = shuffle_results([](int v) { return __shfl_down_sync(0xffffffffu, v, 8, 8); });
    for (int t = 0; t < 64; ++t) CHECK(r8[t] == 100 + t);
}

TEST_CASE("shfl xor: butterfly inside segments; a later segment returns the own value, an earlier one is read") {
    auto r = shuffle_results([](int v) { return __shfl_xor_sync(0xffffffffu, v, 1); });
    for (int t = 0; t < 64; ++t) CHECK(r[t] == 100 + (t ^ 1));

    auto r16 = shuffle_results([](int v) { return __shfl_xor_sync(0xffffffffu, v, 7, 16); });
    for (int t = 0; t < 64; ++t) CHECK(r16[t] == 100 + (t ^ 7));

    // width 8, laneMask 8: lanes 0-7 would read lanes 8-15 (a later segment): own value. Lanes 8-15 read lanes 0-7
    // (an earlier segment), as CUDA documents for widths below warpSize.
    auto r8 = shuffle_results([](int v) { return __shfl_xor_sync(0xffffffffu, v, 8, 8); });
    for (int t = 0; t < 64; ++t) {
        const int lane = t % 32, base = t - lane;
        const int partner = lane ^ 8;
        const bool later = partner / 8 > lane / 8;
        CHECK(r8[t] == 100 + base + (later ? lane : partner));
    }
}

TEST_CASE("shuffles move 64-bit and 16-bit types bit for bit, and narrow integers as int") {
    exec_test::reset_device();
    std::vector<double> d(32);
    std::vector<long long> ll(32);
    std::vector<unsigned short> h(32);
    std::vector<int> c(32);
    launch(1, 32, [&] {
        const unsigned t = threadIdx.x;
        d[t] = __shfl_xor_sync(0xffffffffu, 1.0 / (t + 1), 1);
        ll[t] = __shfl_down_sync(0xffffffffu, (1LL << 40) + t, 1);
        const __half hv = __float2half(static_cast<float>(t) + 0.5f);
        const __half got = __shfl_sync(0xffffffffu, hv, 31 - t);
        std::memcpy(&h[t], &got, sizeof got);
        const signed char sc = static_cast<signed char>(-static_cast<int>(t));
        c[t] = __shfl_sync(0xffffffffu, sc, 3);
    });
    REQUIRE(cudaGetLastError() == cudaSuccess);
    for (unsigned t = 0; t < 32; ++t) {
        CHECK(d[t] == 1.0 / ((t ^ 1) + 1));
        CHECK(ll[t] == (1LL << 40) + (t < 31 ? t + 1 : t));
        const __half expect = __float2half(static_cast<float>(31 - t) + 0.5f);
        unsigned short bits;
        std::memcpy(&bits, &expect, sizeof bits);
        CHECK(h[t] == bits);
        CHECK(c[t] == -3);
    }
}

TEST_CASE("a shuffle over a partial mask completes without the lanes outside it") {
    exec_test::reset_device();
    std::vector<int> out(32, -1);
    launch(1, 32, [&] {
        const unsigned t = threadIdx.x;
        if (t < 16) out[t] = __shfl_down_sync(0x0000ffffu, static_cast<int>(t), 4, 16);
    });
    REQUIRE(cudaGetLastError() == cudaSuccess);
    REQUIRE(emu::take_diagnostics().empty());
    for (int t = 0; t < 16; ++t) CHECK(out[t] == (t + 4 < 16 ? t + 4 : t));
    for (int t = 16; t < 32; ++t) CHECK(out[t] == -1);
}

TEST_CASE("the lesson's warp reduction sums a warp") {
    exec_test::reset_device();
    std::vector<float> out(64);
    launch(1, 64, [&] {
        float v = static_cast<float>(threadIdx.x);
        for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
        out[threadIdx.x] = v;
    });
    CHECK(out[0] == 496.0f);             // 0 + … + 31
    CHECK(out[32] == 496.0f + 32 * 32);  // 32 + … + 63
}
