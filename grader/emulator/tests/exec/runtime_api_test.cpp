// Memory, streams and events of the runtime API; atomics from many blocks.
#include <string>
#include <vector>

#include "workbook_catch.hpp"
#include "exec_helpers.hpp"

TEST_CASE("cudaMemcpy and cudaMemset check their ranges against the allocation") {
    exec_test::reset_device();
    int* d = nullptr;
    REQUIRE(cudaMalloc(&d, 16 * sizeof(int)) == cudaSuccess);
    std::vector<int> h(16, 5), back(16, 0);
    CHECK(cudaMemcpy(d, h.data(), 16 * sizeof(int), cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK(cudaMemset(d + 8, 0, 8 * sizeof(int)) == cudaSuccess);
    CHECK(cudaMemcpy(back.data(), d, 16 * sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess);
    for (int i = 0; i < 16; ++i) CHECK(back[i] == (i < 8 ? 5 : 0));
    std::vector<int> big(17);
    CHECK(cudaMemcpy(d, big.data(), 17 * sizeof(int), cudaMemcpyHostToDevice) == cudaErrorInvalidValue);
    CHECK(cudaGetLastError() == cudaErrorInvalidValue);
    CHECK(cudaMemcpy(big.data(), d + 1, 16 * sizeof(int), cudaMemcpyDeviceToHost) == cudaErrorInvalidValue);
    CHECK(cudaMemset(d, 0, 17 * sizeof(int)) == cudaErrorInvalidValue);
    CHECK(cudaMemcpy(d, h.data(), 4, static_cast<cudaMemcpyKind>(7)) == cudaErrorInvalidMemcpyDirection);
    cudaStream_t s;
    REQUIRE(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
    CHECK(cudaMemcpyAsync(back.data(), d, 8, cudaMemcpyDeviceToHost, s) == cudaSuccess);
    CHECK(cudaMemsetAsync(d, 1, 8, s) == cudaSuccess);
    CHECK(cudaStreamSynchronize(s) == cudaSuccess);
    CHECK(cudaStreamDestroy(s) == cudaSuccess);
    CHECK(cudaStreamDestroy(s) == cudaErrorInvalidResourceHandle);
    CHECK(cudaFree(d) == cudaSuccess);
    CHECK(cudaFree(d) == cudaErrorInvalidValue);  // double free
    CHECK(cudaFree(nullptr) == cudaSuccess);
    cudaGetLastError();
}

TEST_CASE("events time work on the host clock; missing records and timing-disabled events are errors") {
    exec_test::reset_device();
    cudaEvent_t a, b, untimed;
    REQUIRE(cudaEventCreate(&a) == cudaSuccess);
    REQUIRE(cudaEventCreate(&b) == cudaSuccess);
    REQUIRE(cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming) == cudaSuccess);
    float ms = -1;
    CHECK(cudaEventElapsedTime(&ms, a, b) == cudaErrorInvalidResourceHandle);  // not recorded yet
    CHECK(cudaEventRecord(a) == cudaSuccess);
    std::vector<float> out(256 * 64);
    exec_test::launch(64, 256, [&] {
        float v = static_cast<float>(threadIdx.x);
        for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
        out[blockIdx.x * 256 + threadIdx.x] = v;
    });
    CHECK(cudaEventRecord(b, 0) == cudaSuccess);
    CHECK(cudaEventSynchronize(b) == cudaSuccess);
    CHECK(cudaEventElapsedTime(&ms, a, b) == cudaSuccess);
    CHECK(ms > 0.0f);
    CHECK(ms < 10000.0f);
    CHECK(cudaEventRecord(untimed) == cudaSuccess);
    CHECK(cudaEventElapsedTime(&ms, a, untimed) == cudaErrorInvalidResourceHandle);
    CHECK(cudaEventDestroy(a) == cudaSuccess);
    CHECK(cudaEventDestroy(b) == cudaSuccess);
    CHECK(cudaEventDestroy(untimed) == cudaSuccess);
    CHECK(cudaEventRecord(a) == cudaErrorInvalidResourceHandle);
    cudaGetLastError();
}

TEST_CASE("atomics from every thread of many blocks") {
    exec_test::reset_device();
    struct Counters {
        int add_i = 0;
        unsigned add_u = 0;
        unsigned long long add_ull = 0;
        float add_f = 0;
        double add_d = 0;
        int sub_i = 0;
        int max_i = -1000000;
        unsigned min_u = 0xffffffffu;
        long long max_ll = 0;
        unsigned or_u = 0;
        unsigned and_u = 0xffffffffu;
        unsigned xor_u = 0;
        unsigned inc_u = 0;
        unsigned dec_u = 0;
        int cas_winner = -1;
        int exch_i = 0;
    };
    Counters* c = nullptr;
    REQUIRE(cudaMallocManaged(&c, sizeof(Counters)) == cudaSuccess);
    *c = Counters{};
    const unsigned blocks = 16, threads = 128, n = blocks * threads;
    exec_test::launch(blocks, threads, [&] {
        const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
        atomicAdd(&c->add_i, 1);
        atomicAdd(&c->add_u, 2u);
        atomicAdd(&c->add_ull, 1ull << 33);
        atomicAdd(&c->add_f, 0.5f);
        atomicAdd(&c->add_d, 0.25);
        atomicSub(&c->sub_i, 3);
        atomicMax(&c->max_i, static_cast<int>(g) - 5);
        atomicMin(&c->min_u, g + 10);
        atomicMax(&c->max_ll, static_cast<long long>(g) << 34);
        atomicOr(&c->or_u, 1u << (g % 32));
        atomicAnd(&c->and_u, ~(1u << (g % 16)));
        atomicXor(&c->xor_u, 1u << (g % 4));
        atomicInc(&c->inc_u, 99u);  // wraps to 0 after 99
        atomicDec(&c->dec_u, 9u);   // from 0 wraps to 9
        atomicCAS(&c->cas_winner, -1, static_cast<int>(g));
        atomicExch(&c->exch_i, static_cast<int>(g));
    });
    REQUIRE(cudaGetLastError() == cudaSuccess);
    CHECK(c->add_i == static_cast<int>(n));
    CHECK(c->add_u == 2 * n);
    CHECK(c->add_ull == static_cast<unsigned long long>(n) << 33);
    CHECK(c->add_f == 0.5f * n);
    CHECK(c->add_d == 0.25 * n);
    CHECK(c->sub_i == -3 * static_cast<int>(n));
    CHECK(c->max_i == static_cast<int>(n) - 6);
    CHECK(c->min_u == 10u);
    CHECK(c->max_ll == static_cast<long long>(n - 1) << 34);
    CHECK(c->or_u == 0xffffffffu);
    CHECK(c->and_u == 0xffff0000u);
    CHECK(c->xor_u == 0u);  // each bit flipped n/4 = 512 times
    CHECK(c->inc_u == n % 100);
    CHECK(c->dec_u == (10 - n % 10) % 10);
    CHECK(c->cas_winner == 0);  // forward order: thread 0 of block 0 swaps first
    CHECK(c->exch_i == static_cast<int>(n - 1));
    CHECK(cudaFree(c) == cudaSuccess);
}

namespace {
__constant__ float c_table[4];
__global__ void c_table_reader(float* out) { out[threadIdx.x] = c_table[threadIdx.x]; }
}  // namespace

TEST_CASE("__constant__ symbols are written and read back with cudaMemcpyToSymbol / FromSymbol") {
    exec_test::reset_device();
    const float src[4] = {1.5f, 2.5f, 3.5f, 4.5f};
    REQUIRE(cudaMemcpyToSymbol(c_table, src, sizeof src) == cudaSuccess);
    CHECK(cudaMemcpyToSymbol(c_table, src, sizeof src, 4) == cudaErrorInvalidValue);  // past the symbol's end
    cudaGetLastError();
    std::vector<float> seen(4);
    exec_test::launch(1, 4, [&] { seen[threadIdx.x] = c_table[3 - threadIdx.x]; });
    CHECK(seen == std::vector<float>{4.5f, 3.5f, 2.5f, 1.5f});
    float back[2] = {0, 0};
    REQUIRE(cudaMemcpyFromSymbol(back, c_table, sizeof back, 2 * sizeof(float)) == cudaSuccess);
    CHECK(back[0] == 3.5f);
    CHECK(back[1] == 4.5f);
}

TEST_CASE("cudaMemcpyDefault checks the side that is device memory; occupancy follows the SM limits") {
    exec_test::reset_device();
    int* d = nullptr;
    REQUIRE(cudaMalloc(&d, 8 * sizeof(int)) == cudaSuccess);
    std::vector<int> h(9, 3);
    CHECK(cudaMemcpy(d, h.data(), 8 * sizeof(int), cudaMemcpyDefault) == cudaSuccess);
    CHECK(cudaMemcpy(d, h.data(), 9 * sizeof(int), cudaMemcpyDefault) == cudaErrorInvalidValue);
    CHECK(cudaMemcpy(h.data(), d + 4, 5 * sizeof(int), cudaMemcpyDefault) == cudaErrorInvalidValue);
    cudaGetLastError();
    CHECK(cudaFree(d) == cudaSuccess);
    int blocks = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, c_table_reader, 256, 0) == cudaSuccess);
    CHECK(blocks == 8);  // 2048 threads per SM
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, c_table_reader, 32, 0) == cudaSuccess);
    CHECK(blocks == 32);  // 32 blocks per SM
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, c_table_reader, 128, 100 * 1024) == cudaSuccess);
    CHECK(blocks == 2);  // 228 KiB of shared memory per SM
}

TEST_CASE("cudaMemcpy2D copies rows with pitches, checking each row's range") {
    exec_test::reset_device();
    char* d = nullptr;
    REQUIRE(cudaMalloc(&d, 3 * 8) == cudaSuccess);
    const char host[3][5] = {"abcd", "efgh", "ijkl"};
    REQUIRE(cudaMemcpy2D(d, 8, host, 5, 4, 3, cudaMemcpyHostToDevice) == cudaSuccess);
    char out[3][4];
    REQUIRE(cudaMemcpy2D(out, 4, d, 8, 4, 3, cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK(std::string(out[0], 4) == "abcd");
    CHECK(std::string(out[2], 4) == "ijkl");
    CHECK(cudaMemcpy2D(d, 8, host, 5, 4, 4, cudaMemcpyHostToDevice) == cudaErrorInvalidValue);  // 4th row is past it
    CHECK(cudaMemcpy2D(d, 3, host, 5, 4, 1, cudaMemcpyHostToDevice) == cudaErrorInvalidPitchValue);
    cudaGetLastError();
    CHECK(cudaFree(d) == cudaSuccess);
}

namespace {
void add_one(int* p, int n) {
    for (int i = static_cast<int>(threadIdx.x); i < n; i += static_cast<int>(blockDim.x)) p[i] += 1;
}
int g_device_table[8];
void count_call(void* counter) { ++*static_cast<int*>(counter); }
void record_status(cudaStream_t, cudaError_t status, void* out) { *static_cast<cudaError_t*>(out) = status; }
}  // namespace

TEST_CASE("cudaLaunchKernel reads the argument array through the kernel's type; a void* kernel is refused") {
    exec_test::reset_device();
    int* d = nullptr;
    REQUIRE(cudaMalloc(&d, 40 * sizeof(int)) == cudaSuccess);
    REQUIRE(cudaMemset(d, 0, 40 * sizeof(int)) == cudaSuccess);
    int n = 40;
    void* args[] = {&d, &n};
    CHECK(cudaLaunchKernel(add_one, dim3(1), dim3(16), args) == cudaSuccess);
    CHECK(cudaLaunchKernel(add_one, dim3(1), dim3(2048), args) == cudaErrorInvalidValue);  // bad shape: not run
    cudaGetLastError();
    CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(add_one), dim3(1), dim3(16), args) ==
          cudaErrorInvalidDeviceFunction);
    cudaGetLastError();
    std::vector<int> h(40);
    REQUIRE(cudaMemcpy(h.data(), d, 40 * sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess);
    for (int v : h) CHECK(v == 1);
    cudaFree(d);
}

TEST_CASE("host functions and callbacks run in stream order; a callback sees the sticky error") {
    exec_test::reset_device();
    cudaStream_t s;
    REQUIRE(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, -100) == cudaSuccess);
    int priority = 1;
    CHECK(cudaStreamGetPriority(s, &priority) == cudaSuccess);
    CHECK(priority == -5);
    int calls = 0;
    CHECK(cudaLaunchHostFunc(s, count_call, &calls) == cudaSuccess);
    CHECK(calls == 1);
    cudaError_t seen = cudaErrorUnknown;
    CHECK(cudaStreamAddCallback(s, record_status, &seen, 0) == cudaSuccess);
    CHECK(seen == cudaSuccess);
    CHECK(cudaStreamAddCallback(s, record_status, &seen, 1) == cudaErrorInvalidValue);  // flags must be 0
    // After a faulting kernel every call fails, and a callback is told why.
    exec_test::launch(1, 1, [] { __trap(); });
    emu::take_diagnostics();
    CHECK(cudaStreamAddCallback(s, record_status, &seen, 0) == cudaErrorLaunchFailure);
    CHECK(seen == cudaErrorLaunchFailure);
    exec_test::reset_device();
    CHECK(cudaStreamDestroy(s) == cudaSuccess);
    CHECK(cudaMallocAsync(reinterpret_cast<void**>(&priority), 4, s) == cudaErrorInvalidResourceHandle);
    cudaGetLastError();
}

TEST_CASE("occupancy helpers follow the SM limits; symbol addresses are device memory") {
    exec_test::reset_device();
    int grid = 0, block = 0;
    // Every block size from 64 up keeps 2048 threads resident; the largest wins the tie, and two blocks per SM fill it.
    CHECK(cudaOccupancyMaxPotentialBlockSize(&grid, &block, add_one, 0, 0) == cudaSuccess);
    CHECK(block == 1024);
    CHECK(grid == 2 * 132);
    CHECK(cudaOccupancyMaxPotentialBlockSize(&grid, &block, add_one, 0, 96) == cudaSuccess);
    CHECK(block == 64);  // 96 allows 32, 64: 64 x 32 blocks = 2048 threads beats 32 x 32
    std::size_t bytes = 0;
    CHECK(cudaOccupancyAvailableDynamicSMemPerBlock(&bytes, add_one, 2, 256) == cudaSuccess);
    CHECK(bytes == 228 * 1024 / 2 - 1024);
    void* p = nullptr;
    REQUIRE(cudaGetSymbolAddress(&p, g_device_table) == cudaSuccess);
    CHECK(p == static_cast<void*>(g_device_table));
    CHECK(cudaMemset(p, 0x01, sizeof g_device_table) == cudaSuccess);
    CHECK(g_device_table[7] == 0x01010101);
    CHECK(cudaMemset(p, 0, sizeof g_device_table + 1) == cudaErrorInvalidValue);
    cudaGetLastError();
    std::size_t size = 0;
    CHECK(cudaGetSymbolSize(&size, g_device_table) == cudaSuccess);
    CHECK(size == sizeof g_device_table);
}
