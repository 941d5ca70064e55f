// Votes, __syncthreads_count/and/or, __syncwarp, and the order the schedules run threads in.
#include <algorithm>
#include <cstdint>
#include <string>

#include "workbook_catch.hpp"
#include "exec_helpers.hpp"
#include "exec.hpp"

using exec_test::launch;
using exec_test::linear_tid;

TEST_CASE("ballot, any and all over full and partial masks") {
    exec_test::reset_device();
    std::vector<unsigned> ballot(64), any_lo(64), all_lo(64), all_even(64), active(64);
    launch(1, 64, [&] {
        const unsigned t = threadIdx.x;
        ballot[t] = __ballot_sync(0xffffffffu, t % 3 == 0);
        if ((t % 32) < 8) {
            any_lo[t] = __any_sync(0x000000ffu, t % 32 == 7);
            all_lo[t] = __all_sync(0x000000ffu, t % 32 < 8);
        }
        all_even[t] = __all_sync(0xffffffffu, t % 2 == 0);
        active[t] = __activemask();
    });
    REQUIRE(cudaGetLastError() == cudaSuccess);
    REQUIRE(emu::take_diagnostics().empty());
    for (unsigned t = 0; t < 64; ++t) {
        unsigned expect = 0;
        for (unsigned l = 0; l < 32; ++l)
            if (((t / 32) * 32 + l) % 3 == 0) expect |= 1u << l;
        CHECK(ballot[t] == expect);
        CHECK(all_even[t] == 0u);
        CHECK(active[t] == 0xffffffffu);
        if (t % 32 < 8) {
            CHECK(any_lo[t] == 1u);
            CHECK(all_lo[t] == 1u);
        }
    }
}

TEST_CASE("activemask leaves out lanes that exited and lanes a partial warp lacks") {
    exec_test::reset_device();
    unsigned seen = 0;
    launch(1, 40, [&] {
        if (threadIdx.x == 35 || threadIdx.x == 33) return;
        const unsigned m = __activemask();
        __syncwarp(m);
        if (threadIdx.x == 32) seen = m;
        if (threadIdx.x == 0) {
            // Inside a branch only the lanes that took it are active.
            CHECK(__activemask() == 1u);
        }
    });
    REQUIRE(cudaGetLastError() == cudaSuccess);
    CHECK(seen == (0xffu & ~((1u << 1) | (1u << 3))));
}

TEST_CASE("__syncthreads_count, _and and _or reduce the predicate over the block") {
    exec_test::reset_device();
    std::vector<int> cnt(96), all(96), any(96), none(96);
    launch(1, dim3(32, 3), [&] {
        const unsigned t = linear_tid();
        cnt[t] = __syncthreads_count(t % 5 == 0);
        all[t] = __syncthreads_and(t < 96);
        any[t] = __syncthreads_or(t == 77);
        none[t] = __syncthreads_or(0);
    });
    REQUIRE(cudaGetLastError() == cudaSuccess);
    for (unsigned t = 0; t < 96; ++t) {
        CHECK(cnt[t] == 20);  // 0, 5, …, 95
        CHECK(all[t] == 1);
        CHECK(any[t] == 1);
        CHECK(none[t] == 0);
    }
}

TEST_CASE("a barrier orders writes before reads across warps") {
    exec_test::reset_device();
    static int buf[256];
    std::vector<int> out(256);
    emu::set_schedule(emu::Schedule::reverse);
    launch(1, 256, [&] {
        const unsigned t = threadIdx.x;
        buf[t] = static_cast<int>(t) * 2;
        __syncthreads();
        out[t] = buf[255 - t];
    });
    for (int t = 0; t < 256; ++t) CHECK(out[t] == (255 - t) * 2);
    exec_test::reset_device();
}

namespace {
std::vector<unsigned> arrival_order(emu::Schedule s, std::uint64_t seed, unsigned block = 0) {
    exec_test::reset_device();
    emu::set_schedule(s, seed);
    std::vector<unsigned> order;
    launch(2, 64, [&] {
        __syncthreads();
        if (blockIdx.x == block) order.push_back(threadIdx.x);
    });
    emu::set_schedule(emu::Schedule::forward);
    return order;
}
}  // namespace

TEST_CASE("forward, reverse and seeded random schedules run threads in different orders") {
    const auto fwd = arrival_order(emu::Schedule::forward, 0);
    const auto rev = arrival_order(emu::Schedule::reverse, 0);
    const auto rnd = arrival_order(emu::Schedule::random, 42);
    const auto rnd_again = arrival_order(emu::Schedule::random, 42);
    const auto rnd_other = arrival_order(emu::Schedule::random, 43);
    const auto rnd_block1 = arrival_order(emu::Schedule::random, 42, 1);
    REQUIRE(fwd.size() == 64);
    for (unsigned i = 0; i < 64; ++i) {
        CHECK(fwd[i] == i);
        CHECK(rev[i] == 63 - i);
    }
    CHECK(rnd == rnd_again);  // reproducible from the seed
    CHECK(rnd != rnd_other);  // and the seed matters
    CHECK(rnd != fwd);
    CHECK(rnd != rev);
    CHECK(rnd_block1 != rnd);  // fresh per block
    auto sorted = rnd;
    std::sort(sorted.begin(), sorted.end());
    CHECK(sorted == fwd);  // a permutation: every thread ran once
}

TEST_CASE("a missing barrier shows up under reverse order but not forward") {
    // Thread 0 writes a value the others read without a barrier in between: forward order hides the bug.
    auto run = [](emu::Schedule s) {
        exec_test::reset_device();
        emu::set_schedule(s);
        static int flag;
        flag = 0;
        int wrong = 0;
        launch(1, 32, [&] {
            if (threadIdx.x == 0) flag = 7;
            if (flag != 7) ++wrong;
        });
        emu::set_schedule(emu::Schedule::forward);
        return wrong;
    };
    CHECK(run(emu::Schedule::forward) == 0);
    CHECK(run(emu::Schedule::reverse) == 31);
}

TEST_CASE("__nanosleep lets a spin-wait see another thread's write") {
    exec_test::reset_device();
    static volatile int ready;
    ready = 0;
    int seen = 0;
    launch(1, 2, [&] {
        if (threadIdx.x == 0) {
            while (!ready) __nanosleep(100);
            seen = 1;
        } else {
            ready = 1;
        }
    });
    REQUIRE(cudaGetLastError() == cudaSuccess);
    CHECK(seen == 1);
}

TEST_CASE("3-D blocks and grids give every thread its coordinates") {
    exec_test::reset_device();
    std::vector<int> hits(2 * 3 * 2 * 4 * 2 * 3, 0);
    launch(dim3(2, 3, 2), dim3(4, 2, 3), [&] {
        const unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
        const unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
        hits[b * 24 + t] += 1;
        CHECK(warpSize == 32);
    });
    for (int h : hits) CHECK(h == 1);
}

TEST_CASE("the random order is redrawn after each barrier") {
    exec_test::reset_device();
    emu::set_schedule(emu::Schedule::random, 7);
    std::vector<unsigned> first, second;
    launch(1, 64, [&] {
        first.push_back(threadIdx.x);
        __syncthreads();
        second.push_back(threadIdx.x);
    });
    emu::set_schedule(emu::Schedule::forward);
    REQUIRE(first.size() == 64);
    REQUIRE(second.size() == 64);
    CHECK(first != second);
}

TEST_CASE("ordering epochs the memory checker reads advance at barriers and __syncwarp") {
    exec_test::reset_device();
    std::vector<std::uint32_t> block_ep(64), warp_ep(64);
    std::vector<std::uint64_t> serial(128);
    launch(2, 64, [&] {
        const unsigned t = threadIdx.x;
        const auto& info = emu::rt::current_thread();
        CHECK(info.linear == t);
        CHECK(info.warp == t / 32);
        CHECK(info.lane == t % 32);
        CHECK(info.block.x == blockIdx.x);
        CHECK(emu::rt::block_epoch() == 0u);
        __syncthreads();
        __syncthreads();
        if (blockIdx.x == 0) block_ep[t] = emu::rt::block_epoch();
        __syncwarp();
        if (blockIdx.x == 0) warp_ep[t] = emu::rt::warp_epoch(t / 32);
        serial[blockIdx.x * 64 + t] = emu::rt::block_serial();
        CHECK(std::string(emu::rt::kernel_name()) == "test_kernel");
        CHECK(emu::rt::block_dim().x == 64);
        CHECK(emu::rt::grid_dim().x == 2);
    });
    for (unsigned t = 0; t < 64; ++t) {
        CHECK(block_ep[t] == 2u);
        CHECK(warp_ep[t] == 1u);
        CHECK(serial[t] == serial[0]);
        CHECK(serial[64 + t] == serial[64]);
    }
    CHECK(serial[0] != serial[64]);
}

TEST_CASE("__ldg reads, clock64 advances, device printf prints") {
    exec_test::reset_device();
    std::vector<int> src{10, 20, 30, 40}, dst(4);
    bool advanced = true;
    launch(1, 4, [&] {
        dst[threadIdx.x] = __ldg(&src[3 - threadIdx.x]);
        const long long a = clock64();
        __threadfence();
        const long long b = clock64();
        if (b < a) advanced = false;
        if (threadIdx.x == 0) printf("device printf from thread %u of block %u\n", threadIdx.x, blockIdx.x);
    });
    CHECK(dst == std::vector<int>{40, 30, 20, 10});
    CHECK(advanced);
}
