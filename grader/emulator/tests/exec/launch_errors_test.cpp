// Launch configuration errors with CUDA's codes and names; the failed launch does not run.
#include <cstring>
#include <string>

#include "workbook_catch.hpp"
#include "exec_helpers.hpp"
#include "api_state.hpp"
#include "exec.hpp"

namespace {

int g_ran = 0;

__global__ void set_ran_kernel(int value) { g_ran = value; }
__global__ void big_shared_kernel(int value) { g_ran = value; }
__global__ void other_kernel(int value) { g_ran = value; }
template <int N>
__global__ void templated_kernel(int value) {
    g_ran = value + N;
}

// What the rewriter makes of `K<<<grid, block, smem>>>(7)`.
template <class K>
cudaError_t launch_named(const char* name, K kernel, dim3 grid, dim3 block, std::size_t smem = 0,
                         cudaStream_t stream = 0) {
    g_ran = 0;
    ::emu::launch(
        name, [&](auto&&... a) { kernel(a...); }, grid, block, smem, stream)(7);
    return cudaGetLastError();
}

}  // namespace

TEST_CASE("block and grid shapes outside the limits are cudaErrorInvalidValue, as CUDA 13 on an H200 reports") {
    exec_test::reset_device();
    const dim3 bad_blocks[] = {dim3(1025),     dim3(0),       dim3(1, 0),     dim3(2048, 1, 1),
                               dim3(1, 1, 65), dim3(1, 1025), dim3(32, 32, 2)};
    for (const dim3& b : bad_blocks) {
        CHECK(launch_named("set_ran_kernel", set_ran_kernel, 1, b) == cudaErrorInvalidValue);
        CHECK(g_ran == 0);
        CHECK(cudaGetLastError() == cudaSuccess);  // not sticky
    }
    const dim3 bad_grids[] = {dim3(0), dim3(1, 0), dim3(1, 1, 0), dim3(1, 65536)};
    for (const dim3& g : bad_grids) {
        CHECK(launch_named("set_ran_kernel", set_ran_kernel, g, 32) == cudaErrorInvalidValue);
        CHECK(g_ran == 0);
    }
    CHECK(std::string(cudaGetErrorName(cudaErrorInvalidConfiguration)) == "cudaErrorInvalidConfiguration");
    CHECK(cudaErrorInvalidConfiguration == 9);
    CHECK(std::string(cudaGetErrorString(cudaErrorInvalidConfiguration)) == "invalid configuration argument");
    // The limits themselves are fine.
    CHECK(launch_named("set_ran_kernel", set_ran_kernel, 1, 1024) == cudaSuccess);
    CHECK(g_ran == 7);
    CHECK(launch_named("set_ran_kernel", set_ran_kernel, 1, dim3(16, 1, 64)) == cudaSuccess);
}

TEST_CASE("dynamic shared memory over 48 KiB needs cudaFuncSetAttribute, and never above the opt-in limit") {
    exec_test::reset_device();
    CHECK(launch_named("big_shared_kernel", big_shared_kernel, 1, 32, 48 * 1024) == cudaSuccess);
    CHECK(launch_named("big_shared_kernel", big_shared_kernel, 1, 32, 48 * 1024 + 1) == cudaErrorInvalidValue);
    CHECK(g_ran == 0);
    CHECK(cudaErrorInvalidValue == 1);
    CHECK(std::string(cudaGetErrorName(cudaErrorInvalidValue)) == "cudaErrorInvalidValue");

    REQUIRE(cudaFuncSetAttribute(big_shared_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024) ==
            cudaSuccess);
    CHECK(launch_named("big_shared_kernel", big_shared_kernel, 1, 32, 100 * 1024) == cudaSuccess);
    CHECK(g_ran == 7);
    CHECK(launch_named("big_shared_kernel", big_shared_kernel, 1, 32, 100 * 1024 + 1) == cudaErrorInvalidValue);
    // The attribute belongs to that kernel only.
    CHECK(launch_named("other_kernel", other_kernel, 1, 32, 64 * 1024) == cudaErrorInvalidValue);
    // Above the opt-in limit (227 KiB) the attribute itself is refused.
    CHECK(cudaFuncSetAttribute(big_shared_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 228 * 1024) ==
          cudaErrorInvalidValue);
    cudaGetLastError();
    cudaFuncAttributes attr{};
    REQUIRE(cudaFuncGetAttributes(&attr, big_shared_kernel) == cudaSuccess);
    CHECK(attr.maxDynamicSharedSizeBytes == 100 * 1024);
    CHECK(attr.maxThreadsPerBlock == 1024);
}

TEST_CASE("kernel attributes meet launches by the kernel's name, templates included") {
    using emu::rt::kernel_key;
    CHECK(kernel_key("rmsnorm_kernel<BLOCK_SIZE>") == "rmsnorm_kernel");
    CHECK(kernel_key("ns::inner::k") == "k");
    CHECK(kernel_key("void (anonymous namespace)::rmsnorm_kernel<256>(float const*, float*, int)") == "rmsnorm_kernel");
    CHECK(kernel_key("templated_kernel<(int)3>(int)") == "templated_kernel");

    exec_test::reset_device();
    CHECK(launch_named("templated_kernel<3>", templated_kernel<3>, 1, 32, 60 * 1024) == cudaErrorInvalidValue);
    REQUIRE(cudaFuncSetAttribute(templated_kernel<3>, cudaFuncAttributeMaxDynamicSharedMemorySize, 60 * 1024) ==
            cudaSuccess);
    CHECK(launch_named("templated_kernel<3>", templated_kernel<3>, 1, 32, 60 * 1024) == cudaSuccess);
    CHECK(g_ran == 10);
}

TEST_CASE("a launch on a destroyed stream is cudaErrorInvalidResourceHandle") {
    exec_test::reset_device();
    cudaStream_t s;
    REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
    CHECK(launch_named("set_ran_kernel", set_ran_kernel, 1, 1, 0, s) == cudaSuccess);
    CHECK(g_ran == 7);
    REQUIRE(cudaStreamDestroy(s) == cudaSuccess);
    CHECK(launch_named("set_ran_kernel", set_ran_kernel, 1, 1, 0, s) == cudaErrorInvalidResourceHandle);
    CHECK(g_ran == 0);
}

TEST_CASE("errors from a faulting kernel are sticky; cudaPeekAtLastError does not clear") {
    exec_test::reset_device();
    exec_test::launch(1, 32, [] {
        if (threadIdx.x == 3) __trap();
    });
    CHECK(cudaPeekAtLastError() == cudaErrorLaunchFailure);
    CHECK(cudaGetLastError() == cudaErrorLaunchFailure);
    CHECK(cudaGetLastError() == cudaErrorLaunchFailure);
    CHECK(cudaDeviceSynchronize() == cudaErrorLaunchFailure);
    CHECK(launch_named("set_ran_kernel", set_ran_kernel, 1, 1) == cudaErrorLaunchFailure);
    CHECK(g_ran == 0);  // a device with a sticky error runs nothing
    CHECK(emu::take_diagnostics().size() == 1);
    exec_test::reset_device();
    CHECK(launch_named("set_ran_kernel", set_ran_kernel, 1, 1) == cudaSuccess);
}

TEST_CASE("abort_launch from the memory checker's side is sticky with its error code") {
    exec_test::reset_device();
    int after = 0;
    exec_test::launch(4, 32, [&] {
        if (blockIdx.x == 1 && threadIdx.x == 9) emu::rt::abort_launch(cudaErrorMisalignedAddress);
        ++after;
    });
    CHECK(after == 32 + 9);  // block 0, then block 1 up to the faulting thread; nothing after it
    CHECK(cudaGetLastError() == cudaErrorMisalignedAddress);
    CHECK(std::string(cudaGetErrorString(cudaErrorMisalignedAddress)) == "misaligned address");
    CHECK(cudaErrorMisalignedAddress == 716);
    CHECK(cudaErrorIllegalAddress == 700);
    exec_test::reset_device();
}

TEST_CASE("device properties and attributes describe the emulated device") {
    cudaDeviceProp p{};
    REQUIRE(cudaGetDeviceProperties(&p, 0) == cudaSuccess);
    CHECK(std::strstr(p.name, "emulator") != nullptr);
    CHECK(p.major == 9);
    CHECK(p.minor == 0);
    CHECK(p.warpSize == 32);
    CHECK(p.maxThreadsPerBlock == 1024);
    CHECK(p.maxThreadsDim[2] == 64);
    CHECK(p.sharedMemPerBlock == 48 * 1024);
    CHECK(p.sharedMemPerBlockOptin == 227 * 1024);
    CHECK(p.multiProcessorCount == 132);
    int v = 0;
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0) == cudaSuccess);
    CHECK(v == 227 * 1024);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0) == cudaSuccess);
    CHECK(v == 132);
    int n = 0, d = -1;
    CHECK(cudaGetDeviceCount(&n) == cudaSuccess);
    CHECK(n == 1);
    CHECK(cudaGetDevice(&d) == cudaSuccess);
    CHECK(d == 0);
    CHECK(cudaSetDevice(1) == cudaErrorInvalidDevice);
    CHECK(cudaGetLastError() == cudaErrorInvalidDevice);
    std::size_t free_b = 0, total_b = 0;
    CHECK(cudaMemGetInfo(&free_b, &total_b) == cudaSuccess);
    CHECK(total_b > 0);
}
