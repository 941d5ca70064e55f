// A launch that runs longer in all than the watchdog's limit while every block finishes quickly: the test runs it
// with EMU_WATCHDOG_SECONDS=1, and 12 blocks of about 120 ms each must all run (the clock restarts with each block;
// a block that is stuck is still stopped, tests/exec's hang). Public samples launch grids of millions of threads that
// take minutes on the emulator. Prints PASS when every block wrote its row.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

__global__ void busy_rows(int* rows) {
    const long long start = clock64();
    while (clock64() - start < 120000000LL) {  // 120 ms of the host clock (clock64() counts nanoseconds here)
    }
    if (threadIdx.x == 0) rows[blockIdx.x] = blockIdx.x + 1;
}

int main(int argc, char** argv) {
    // More blocks for the launch limit's test: it must reach 1 s of CPU time in all however loaded the machine is.
    const int blocks = argc > 1 ? std::atoi(argv[1]) : 12;
    std::printf("long grid: %d blocks of 120 ms under a 1 s watchdog\n", blocks);
    int* rows = nullptr;
    cudaMallocManaged(&rows, blocks * sizeof(int));
    busy_rows<<<blocks, 1>>>(rows);
    const cudaError_t err = cudaDeviceSynchronize();
    bool ok = err == cudaSuccess;
    for (int b = 0; b < blocks; ++b) ok = ok && rows[b] == b + 1;
    cudaFree(rows);
    std::printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
