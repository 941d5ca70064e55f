// Divergent barriers, deadlocks and bad warp-collective masks are diagnosed (and the launch fails); the fixed
// kernels run clean.
#include <stdexcept>

// The build defines NDEBUG (RelWithDebInfo); device asserts are what is tested here.
#undef NDEBUG
#include <cassert>

#include "workbook_catch.hpp"
#include "exec_helpers.hpp"

using exec_test::any_contains;
using exec_test::launch;

namespace {

// Runs the kernel; returns the diagnostics it produced and checks the launch failed (sticky) iff there were any.
template <class Body>
std::vector<std::string> diagnose(dim3 block, Body body) {
    exec_test::reset_device();
    launch(1, block, body);
    auto diags = emu::take_diagnostics();
    const cudaError_t err = cudaGetLastError();
    if (diags.empty()) {
        CHECK(err == cudaSuccess);
    } else {
        CHECK(err == cudaErrorLaunchFailure);
        CHECK(cudaGetLastError() == cudaErrorLaunchFailure);  // sticky: reading it does not clear it
        CHECK(cudaDeviceSynchronize() == cudaErrorLaunchFailure);
    }
    exec_test::reset_device();
    return diags;
}

}  // namespace

TEST_CASE("barriers on different source lines are a divergent barrier; one shared barrier is fine") {
    auto bad = diagnose(64, [] {
        if (threadIdx.x < 32) {
            __syncthreads();
        } else {
            __syncthreads();
        }
    });
    REQUIRE(bad.size() == 1);
    CHECK(any_contains(bad, "[divergent-barrier]"));
    CHECK(any_contains(bad, "Divergent thread(s) in block"));
    CHECK(any_contains(bad, "diagnostics_test.cpp:"));
    CHECK(any_contains(bad, "(0,0,0)-(31,0,0)"));
    CHECK(any_contains(bad, "(32,0,0)-(63,0,0)"));

    auto good = diagnose(64, [] {
        if (threadIdx.x < 32) {
            // work
        }
        __syncthreads();
    });
    CHECK(good.empty());
}

TEST_CASE("threads that return before a barrier others wait at are a divergent barrier") {
    auto bad = diagnose(64, [] {
        if (threadIdx.x >= 40) return;
        __syncthreads();
    });
    REQUIRE(bad.size() == 1);
    CHECK(any_contains(bad, "[divergent-barrier]"));
    CHECK(any_contains(bad, "exited without reaching it: thread(s) (40,0,0)-(63,0,0)"));

    // The whole block returning (a bounds check on blockIdx) reaches no barrier: fine.
    auto good = diagnose(64, [] {
        if (blockIdx.x >= 1) return;
        __syncthreads();
    });
    CHECK(good.empty());
}

TEST_CASE("a warp collective waiting for lanes that sit at a barrier is a deadlock") {
    auto bad = diagnose(64, [] {
        if (threadIdx.x % 32 < 16) {
            __syncwarp();
        }
        __syncthreads();
    });
    REQUIRE(bad.size() == 1);
    CHECK(any_contains(bad, "[deadlock]"));
    CHECK(any_contains(bad, "lanes 16-31 wait at __syncthreads()"));
    CHECK(any_contains(bad, "__syncwarp(mask 0xffffffff)"));

    auto good = diagnose(64, [] {
        if (threadIdx.x % 32 < 16) {
            __syncwarp(0x0000ffffu);
        }
        __syncthreads();
    });
    CHECK(good.empty());
}

TEST_CASE("a shuffle whose mask leaves out the caller is reported") {
    auto bad = diagnose(32, [] {
        float v = 1.0f;
        v += __shfl_down_sync(0xfffffffeu, v, 1);
        (void)v;
    });
    REQUIRE(bad.size() == 1);
    CHECK(any_contains(bad, "[shuffle-mask]"));
    CHECK(any_contains(bad, "the calling lane is not in the mask"));
    CHECK(any_contains(bad, "thread (0,0,0)"));
}

TEST_CASE("a shuffle whose mask names an exited lane is reported") {
    auto bad = diagnose(32, [] {
        if (threadIdx.x == 31) return;
        int v = static_cast<int>(threadIdx.x);
        v = __shfl_xor_sync(0xffffffffu, v, 1);
        (void)v;
    });
    REQUIRE(bad.size() == 1);
    CHECK(any_contains(bad, "[shuffle-mask]"));
    CHECK(any_contains(bad, "lanes 31 have exited"));
}

TEST_CASE("a full mask in a partial warp names lanes that do not exist") {
    auto bad = diagnose(48, [] {
        float v = 1.0f;
        v += __shfl_down_sync(0xffffffffu, v, 1);
        (void)v;
    });
    REQUIRE(bad.size() == 1);
    CHECK(any_contains(bad, "[shuffle-mask]"));
    CHECK(any_contains(bad, "lanes 16-31, which do not exist"));

    auto good = diagnose(48, [] {
        const unsigned mask = __ballot_sync(threadIdx.x < 32 ? 0xffffffffu : 0x0000ffffu, 1);
        float v = 1.0f;
        v += __shfl_down_sync(mask, v, 1, 16);
        (void)v;
    });
    CHECK(good.empty());
}

TEST_CASE("a shuffle reading a lane outside its mask is reported") {
    auto bad = diagnose(32, [] {
        if (threadIdx.x < 16) {
            int v = __shfl_xor_sync(0x0000ffffu, static_cast<int>(threadIdx.x), 16);
            (void)v;
        }
    });
    REQUIRE(bad.size() == 1);
    CHECK(any_contains(bad, "reads lane 16, which is not in the mask"));
}

TEST_CASE("lanes at different collectives with the same mask are reported") {
    auto bad = diagnose(32, [] {
        if (threadIdx.x < 16) {
            (void)__ballot_sync(0xffffffffu, 1);
        } else {
            (void)__shfl_sync(0xffffffffu, 1, 0);
        }
    });
    REQUIRE(bad.size() == 1);
    CHECK(any_contains(bad, "[shuffle-mask]"));
    CHECK(any_contains(bad, "lanes 16-31 wait at __shfl_sync(mask 0xffffffff)"));
}

TEST_CASE("an exception thrown by a kernel ends the launch without crossing the fiber") {
    auto bad = diagnose(4, [] {
        if (threadIdx.x == 2) throw std::runtime_error("boom");
    });
    REQUIRE(bad.size() == 1);
    CHECK(any_contains(bad, "[exception]"));
    CHECK(any_contains(bad, "boom"));
}

TEST_CASE("a failed device assert ends the launch with cudaErrorAssert") {
    exec_test::reset_device();
    launch(2, 8, [] { assert(threadIdx.x != 5 || blockIdx.x != 1); });
    auto diags = emu::take_diagnostics();
    REQUIRE(diags.size() == 1);
    CHECK(any_contains(diags, "block: (1,0,0), thread: (5,0,0) Assertion"));
    CHECK(cudaGetLastError() == cudaErrorAssert);
    CHECK(std::string(cudaGetErrorName(cudaErrorAssert)) == "cudaErrorAssert");
    void* p = nullptr;
    CHECK(cudaMalloc(&p, 16) == cudaErrorAssert);  // sticky
    exec_test::reset_device();
    CHECK(cudaMalloc(&p, 16) == cudaSuccess);
    CHECK(cudaFree(p) == cudaSuccess);
}
