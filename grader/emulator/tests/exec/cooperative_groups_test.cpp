// Cooperative groups, warp reductions and matches: results written out per case from CUDA's documented semantics, and
// the diagnostics a broken tile collective must produce.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

#include <vector>

#include "workbook_catch.hpp"
#include "exec_helpers.hpp"

namespace cg = cooperative_groups;
using exec_test::launch;
using exec_test::linear_tid;

namespace {

std::vector<long long> run64(long long (*f)(unsigned t)) {
    exec_test::reset_device();
    std::vector<long long> out(64, -1);
    launch(1, 64, [&] { out[linear_tid()] = f(linear_tid()); });
    REQUIRE(cudaGetLastError() == cudaSuccess);
    REQUIRE(emu::take_diagnostics().empty());
    return out;
}

}  // namespace

TEST_CASE("__reduce_*_sync: every lane of the mask gets the reduction over the mask") {
    auto add = run64([](unsigned t) -> long long { return __reduce_add_sync(0xffffffffu, t); });
    for (unsigned t = 0; t < 64; ++t) CHECK(add[t] == (t < 32 ? 496 : 496 + 32 * 32));
    // Signed and unsigned minimum differ for negative values.
    auto smin = run64([](unsigned t) -> long long { return __reduce_min_sync(0xffffffffu, static_cast<int>(t) - 3); });
    auto umin = run64([](unsigned t) -> long long {
        return __reduce_min_sync(0xffffffffu, static_cast<unsigned>(static_cast<int>(t) - 3));
    });
    CHECK(smin[0] == -3);
    CHECK(umin[0] == 0);  // lanes 0-2 hold 0xfffffffd… as unsigned; lane 3 holds 0
    CHECK(smin[40] == 29);
    auto mx = run64([](unsigned t) -> long long { return __reduce_max_sync(0xffffffffu, (t * 7) % 32); });
    CHECK(mx[5] == 31);
    auto band = run64([](unsigned t) -> long long { return __reduce_and_sync(0xffffffffu, t | 0x100u); });
    CHECK(band[3] == 0x100);
    CHECK(band[35] == 0x120);
    auto bxor = run64([](unsigned t) -> long long { return __reduce_xor_sync(0xffffffffu, 1u << (t % 32)); });
    CHECK(bxor[0] == 0xffffffffLL);
    // A partial mask: only the even lanes take part.
    auto even = run64([](unsigned t) -> long long {
        return t % 2 == 0 ? static_cast<long long>(__reduce_add_sync(0x55555555u, 1u)) : -2;
    });
    CHECK(even[0] == 16);
    CHECK(even[1] == -2);
}

TEST_CASE("__match_any_sync groups lanes by value; __match_all_sync says whether all agree") {
    auto any = run64([](unsigned t) -> long long { return __match_any_sync(0xffffffffu, t % 3); });
    CHECK(any[0] == 0x49249249LL);
    CHECK(any[1] == 0x92492492LL);
    CHECK(any[34] == 0x24924924LL);  // second warp: (32 + l) % 3 == 1 for lanes 2, 5, 8, …
    auto all_same = run64([](unsigned t) -> long long {
        int pred = -1;
        const unsigned m = __match_all_sync(0xffffffffu, 7.5f, &pred);
        return m * 2ll + pred;
    });
    CHECK(all_same[9] == 0xffffffffLL * 2 + 1);
    auto differ = run64([](unsigned t) -> long long {
        int pred = -1;
        const unsigned m = __match_all_sync(0xffffffffu, static_cast<unsigned long long>(t == 4), &pred);
        return m * 2ll + pred;
    });
    CHECK(differ[0] == 0);
}

TEST_CASE("tiles of 8: rank, meta group, ballot relative to the tile, shuffles inside the tile") {
    auto r = run64([](unsigned) -> long long {
        auto t8 = cg::tiled_partition<8>(cg::this_thread_block());
        return t8.thread_rank() + 10 * t8.meta_group_rank() + 1000 * t8.meta_group_size();
    });
    CHECK(r[0] == 8000);
    CHECK(r[13] == 8015);
    CHECK(r[63] == 8077);
    auto b = run64([](unsigned t) -> long long {
        auto t8 = cg::tiled_partition<8>(cg::this_thread_block());
        return t8.ballot(t % 3 == 0);
    });
    // Tile 1 holds threads 8..15: multiples of 3 are 9, 12, 15 (ranks 1, 4, 7).
    CHECK(b[8] == 0x92);
    auto s = run64([](unsigned t) -> long long {
        auto t8 = cg::tiled_partition<8>(cg::this_thread_block());
        auto t4 = cg::tiled_partition<4>(t8);
        return t8.shfl(static_cast<int>(t), 9) * 1000 + t4.shfl_down(static_cast<int>(t), 1) +
               100 * t4.meta_group_size();
    });
    // srcRank 9 is rank 1 of the tile; shfl_down past the 4-thread tile keeps the caller's value.
    CHECK(s[10] == 9 * 1000 + 11 + 200);
    CHECK(s[11] == 9 * 1000 + 11 + 200);
}

TEST_CASE("multi-warp tiles: shfl across warps, any/all, reduce and scans") {
    auto sh = run64([](unsigned t) -> long long {
        auto t64 = cg::tiled_partition<64>(cg::this_thread_block());
        return t64.shfl(static_cast<int>(t) * 3, 63) + 1000 * t64.any(t == 40) + 10000 * t64.all(t != 40);
    });
    CHECK(sh[0] == 189 + 1000);
    auto red = run64([](unsigned t) -> long long {
        auto t64 = cg::tiled_partition<64>(cg::this_thread_block());
        return cg::reduce(t64, static_cast<long long>(t), cg::plus<long long>()) * 100 +
               cg::reduce(t64, static_cast<int>(t % 50), cg::greater<int>());
    });
    CHECK(red[7] == 2016 * 100 + 49);
    auto sc = run64([](unsigned t) -> long long {
        auto t64 = cg::tiled_partition<64>(cg::this_thread_block());
        return cg::inclusive_scan(t64, 1) * 100 + cg::exclusive_scan(t64, 2);
    });
    CHECK(sc[0] == 100);
    CHECK(sc[63] == 6400 + 126);
}

TEST_CASE("coalesced_threads: the lanes in the branch, ranked in lane order") {
    auto r = run64([](unsigned t) -> long long {
        if (t % 4 != 1) return -1;
        cg::coalesced_group g = cg::coalesced_threads();
        const int up = g.shfl_up(static_cast<int>(t), 1);
        return g.size() * 1000000ll + g.thread_rank() * 10000 + g.shfl(static_cast<int>(t), 2) * 100 + up % 100 +
               0 * g.ballot(1);
    });
    // Lanes 1, 5, 9, …, 29: 8 of them; rank 2 is lane 9; shfl_up of rank 0 keeps its own value.
    CHECK(r[1] == 8000000 + 0 + 900 + 1);
    CHECK(r[13] == 8000000 + 30000 + 900 + 9);
    CHECK(r[33] == 8000000 + 0 + 4100 + 33);
    auto red = run64([](unsigned t) -> long long {
        if (t >= 5) return -1;
        auto g = cg::coalesced_threads();
        return cg::reduce(g, static_cast<int>(t), cg::plus<int>()) * 100 + cg::exclusive_scan(g, 1) +
               1000 * g.ballot(t % 2 == 0);
    });
    // Sum 0+…+4 = 10; ballot of the even lanes over ranks 0..4: 0b10101 = 21.
    CHECK(red[0] == 21 * 1000 + 10 * 100 + 0);
    CHECK(red[4] == 21 * 1000 + 10 * 100 + 4);
}

TEST_CASE("tiled_partition(block, n) at run time") {
    auto r = run64([](unsigned) -> long long {
        cg::thread_group g = cg::tiled_partition(cg::this_thread_block(), 16);
        g.sync();
        cg::thread_group wide = cg::tiled_partition(cg::this_thread_block(), 64);
        wide.sync();
        return g.size() * 100 + g.thread_rank() + 10000 * wide.thread_rank();
    });
    CHECK(r[20] == 1604 + 200000);
}

TEST_CASE("a multi-warp tile whose member waits at __syncthreads is a deadlock, with both lines") {
    exec_test::reset_device();
    launch(1, 64, [] {
        auto t64 = cg::tiled_partition<64>(cg::this_thread_block());
        if (threadIdx.x == 33) __syncthreads();
        else t64.sync();
    });
    CHECK(cudaGetLastError() == cudaErrorLaunchFailure);
    const auto d = emu::take_diagnostics();
    REQUIRE(d.size() == 1);
    CHECK(exec_test::any_contains(d, "Deadlock in tile of threads (0,0,0)-(63,0,0)"));
    CHECK(exec_test::any_contains(d, "wait at __syncthreads() in"));
    CHECK(exec_test::any_contains(d, "instead: thread(s) (33,0,0)"));
}

TEST_CASE("a warp tile with an exited member is a mask error naming the lanes") {
    exec_test::reset_device();
    launch(1, 32, [] {
        auto t16 = cg::tiled_partition<16>(cg::this_thread_block());
        if (threadIdx.x == 20) return;
        t16.sync();
    });
    CHECK(cudaGetLastError() == cudaErrorLaunchFailure);
    const auto d = emu::take_diagnostics();
    CHECK(exec_test::any_contains(d, "__syncwarp(mask 0xffff0000)"));
    CHECK(exec_test::any_contains(d, "20"));
}

namespace {
void grid_kernel(int* out) {
    cg::grid_group grid = cg::this_grid();
    out[threadIdx.x] = static_cast<int>(grid.thread_rank());
    grid.sync();
    out[32 + threadIdx.x] = out[31 - threadIdx.x] + static_cast<int>(grid.is_valid()) * 100;
}
}  // namespace

TEST_CASE(
    "grid_group::sync under cudaLaunchCooperativeKernel; refused without it and when the grid cannot be resident") {
    exec_test::reset_device();
    std::vector<int> out(64, -1);
    int* p = out.data();
    void* args[] = {&p};
    REQUIRE(cudaLaunchCooperativeKernel(grid_kernel, dim3(1), dim3(32), args) == cudaSuccess);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    CHECK(out[32] == 131);
    CHECK(emu::take_diagnostics().empty());

    REQUIRE(cudaLaunchKernel(grid_kernel, dim3(1), dim3(32), args) == cudaSuccess);
    CHECK(cudaDeviceSynchronize() == cudaErrorLaunchFailure);
    CHECK(exec_test::any_contains(emu::take_diagnostics(), "not launched with cudaLaunchCooperativeKernel"));

    exec_test::reset_device();
    CHECK(cudaLaunchCooperativeKernel(grid_kernel, dim3(100000), dim3(1024), args) ==
          cudaErrorCooperativeLaunchTooLarge);
    exec_test::reset_device();
}

TEST_CASE("labeled_partition and binary_partition split a warp into coalesced groups") {
    auto r = run64([](unsigned t) -> long long {
        auto warp = cg::tiled_partition<32>(cg::this_thread_block());
        cg::coalesced_group by_label = cg::labeled_partition(warp, static_cast<int>(t % 4));
        cg::coalesced_group by_pred = cg::binary_partition(warp, t % 2 == 0);
        return by_label.size() * 10000 + by_label.thread_rank() * 100 + by_pred.size() +
               1000000 * cg::reduce(by_pred, 1, cg::plus<int>());
    });
    // 8 lanes per label; lane 13 is the fourth with label 1 (1, 5, 9, 13); 16 even and 16 odd lanes.
    CHECK(r[13] == 16000000 + 80000 + 300 + 16);
}
