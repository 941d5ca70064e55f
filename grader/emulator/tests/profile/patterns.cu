// The profiler on access patterns whose counts are known by construction (docs/emulator.md, "Profiler"): run with
// EMU_PROFILE set, the program reads back its own profile.jsonl and checks each kernel's numbers. Prints PASS.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <emu/profile.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <string>

namespace {

constexpr int kBlocks = 4, kThreads = 256;

__global__ void coalesced_kernel(const float* x, float* y) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = x[i];
}
__global__ void strided_kernel(const float* x, float* y) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = x[i * 32];  // 32 lanes, 128 bytes apart: one sector each
}
__global__ void vec16_kernel(const float4* x, float4* y) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = x[i];  // 512 bytes per warp: 16 sectors
}
__global__ void broadcast_kernel(const float* x, float* y) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = x[0];  // every lane the same word: one sector
}
__global__ void square_kernel(const float* x, float* y) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = x[i] * x[i];  // g++ -O0 loads twice, nvcc once: one load request per warp
}
__global__ void divergent_kernel(const float* x, float* y) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if ((threadIdx.x & 31) < 16) y[i] = x[i];  // half of each warp: 2 sectors per request, all partial
}
template <int PAD>
__global__ void bank_kernel(const float* x, float* y) {
    __shared__ float tile[8][32][32 + PAD];
    const int w = threadIdx.x >> 5, lane = threadIdx.x & 31;
    for (int k = 0; k < 4; ++k) tile[w][lane][k] = x[blockIdx.x * blockDim.x + threadIdx.x];  // column: conflicts
    __syncthreads();
    y[blockIdx.x * blockDim.x + threadIdx.x] = tile[w][0][0] + tile[w][1][lane & 3];  // broadcasts: 1 word, 4 words
}
__global__ void reread_kernel(const float* x, float* y) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    float a = x[i];
    __syncthreads();
    y[i] = a + x[i];  // the second read is served by L2 in the model: DRAM = the minimum
}

__global__ void pair_kernel(const float* x, float* y) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = x[2 * i] + x[2 * i + 1];  // the second load finds the first's 8 sectors in L1
}
template <int TAG>
__global__ void walk_kernel(const float* x, float* y) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0;
    for (int k = 0; k < 4; ++k) s += x[i * 32 + k];  // lanes 128 bytes apart: 32 lines a load, the next 3 loads in
    y[i] = s;                                        // the same sectors
}

// A weight that warp 0 of every block reads, then the block's own 32 KiB, then the weight again: predicted for 8
// blocks per SM, the block's own traffic times the 8 resident blocks is more than L1 holds, but the other resident
// blocks read the weight too, so it is still there: a line more than one block has used (a shared line) keeps its
// distance as emulated.
__global__ void weight_kernel(const float* x, const float* w, float* y) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
    float s = threadIdx.x < 32 ? w[lane] : 0.f;
    for (int k = 0; k < 32; ++k) s += x[(blockIdx.x * 32 + k) * blockDim.x + threadIdx.x];
    __syncthreads();
    y[i] = s + (threadIdx.x < 32 ? w[lane] : 0.f);
}

// One warp per row of 512 floats (2 KiB), its sum by shuffles, then the same warp reads the row again. Predicted for
// 8 blocks per SM (64 warps interleaved), the warp's own 2 KiB times 64 fits the 248 KiB of L1: the re-read hits.
// The emulator runs each thread until a barrier or a warp collective, so at the shuffles it has run the block's other
// seven warps' first reads (14 KiB more) in between; scaling that block traffic by the 64 warps too (the model before
// the per-warp traffic clock) predicted every re-read a miss.
__global__ void warp_row_kernel(const float* x, float* y) {
    const int r = blockIdx.x * (blockDim.x / 32) + (threadIdx.x >> 5), lane = threadIdx.x & 31;
    const float* row = x + r * 512;
    float s = 0;
    for (int c = lane; c < 512; c += 32) s += row[c];
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    float t = 0;
    for (int c = lane; c < 512; c += 32) t += row[c] * s;
    if (lane == 0) y[r] = t;
}

// A launch of fewer blocks than SMs: one block of 8 warps, each warp a row of 16384 floats (64 KiB), summed by
// shuffles and read again. The block's SM holds all 8 warps, so 8 x 64 KiB pass through its L1 between a warp's two
// reads: more than the 248 KiB it has, every re-read misses. Scaling by the chip's average (1 / 132 blocks per SM,
// taken as one warp) kept each row in L1 (the fifth check's half_warp_row at 256 x 4096: L1 hits +199 %).
__global__ void few_blocks_kernel(const float* x, float* y) {
    const int r = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const float* row = x + r * 16384;
    float s = 0;
    for (int c = lane; c < 16384; c += 32) s += row[c];
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    float t = 0;
    for (int c = lane; c < 16384; c += 32) t += row[c] * s;
    if (lane == 0) y[r] = t;
}

// The same warps, each summing two rows of 16384 floats one after the other with no barrier: a warp waits for a
// row's loads at its shuffles, so its reads go in three dependent stretches (row 0; row 0 again with row 1, which
// nothing orders after it; row 1 again), three round trips beyond L1 (every read misses, as above); counting them at
// barriers only saw one.
__global__ void two_rows_kernel(const float* x, float* y) {
    const int w = threadIdx.x >> 5, lane = threadIdx.x & 31;
    for (int k = 0; k < 2; ++k) {
        const float* row = x + (2 * w + k) * 16384;
        float s = 0;
        for (int c = lane; c < 16384; c += 32) s += row[c];
        for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
        float t = 0;
        for (int c = lane; c < 16384; c += 32) t += row[c] * s;
        if (lane == 0) y[2 * w + k] = t;
    }
}

__device__ float bf16_to_float(__nv_bfloat16 v) { return __bfloat162float(v); }
__global__ void bf16_call_kernel(const __nv_bfloat16* x, float* y) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = bf16_to_float(x[i]);  // 2 bytes per lane read straight into a by-value argument: 64 bytes, 2 sectors
}

// Structs that a call returns, stored straight into memory: counted because emu-nvcc materializes the value
// (stored_value) and g++ then instruments the copy.
__global__ void bf16_store_kernel(const float* x, __nv_bfloat16* y) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = __float2bfloat16(x[i]);  // 2 bytes per lane: 64 bytes, 2 sectors per request
}
__global__ void float2_store_kernel(const float* x, float2* y) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = make_float2(x[i], 1.f);  // 8 bytes per lane: 256 bytes, 8 sectors per request
}

std::map<std::string, std::string> read_profile(const std::string& dir) {
    std::map<std::string, std::string> by_kernel;
    std::ifstream in(dir + "/profile.jsonl");
    std::string line;
    while (std::getline(in, line)) {
        const auto k = line.find("\"kernel\":\"") + 10;
        by_kernel[line.substr(k, line.find('"', k) - k)] = line;
    }
    return by_kernel;
}

double field(const std::string& line, const std::string& key) {
    const auto k = line.find("\"" + key + "\":");
    if (k == std::string::npos) return -1;
    return std::atof(line.c_str() + k + key.size() + 3);
}

int failures = 0;

void expect(const std::map<std::string, std::string>& p, const std::string& kernel, const std::string& what,
            double want) {
    auto it = p.find(kernel);
    double got = -1;
    if (it != p.end()) {
        if (what == "ld_sectors/request") got = field(it->second, "ld_sectors") / field(it->second, "ld_requests");
        else if (what == "st_sectors/request") got = field(it->second, "st_sectors") / field(it->second, "st_requests");
        else if (what == "ld_lines/request") got = field(it->second, "ld_lines") / field(it->second, "ld_requests");
        else if (what == "conflicts/request")
            got = field(it->second, "sh_bank_conflicts") /
                  (field(it->second, "sh_ld_requests") + field(it->second, "sh_st_requests"));
        else got = field(it->second, what);
    }
    const bool ok = got > want - 1e-6 * (1 + want) && got < want + 1e-6 * (1 + want);
    std::printf("%-4s %-22s %-20s %10.4f (expected %g)\n", ok ? "ok" : "FAIL", kernel.c_str(), what.c_str(), got, want);
    failures += !ok;
}

}  // namespace

int main() {
    const char* dir = std::getenv("EMU_PROFILE");
    if (!dir) {
        std::puts("FAIL: run with EMU_PROFILE=<empty directory>");
        return 1;
    }
    std::remove((std::string(dir) + "/profile.jsonl").c_str());
    std::remove((std::string(dir) + "/report.txt").c_str());
    std::remove((std::string(dir) + "/warp-bank_kernel_0_.svg").c_str());
    // Registers per template instance (what workbook profile writes from nvcc -Xptxas -v): read at the first launch.
    const std::string table = std::string(dir) + "/ptxas.tsv";
    std::ofstream(table) << "40\t0\t(anonymous namespace)::bank_kernel<0>(const float *, float *)\n"
                         << "64\t0\t(anonymous namespace)::bank_kernel<1>(const float *, float *)\n";
    setenv("EMU_PROFILE_PTXAS", table.c_str(), 1);
    const int n = kBlocks * kThreads;
    float *x, *y;
    cudaMalloc(&x, n * 32 * sizeof(float));
    cudaMalloc(&y, n * 4 * sizeof(float));
    cudaMemset(x, 0, n * 32 * sizeof(float));
    coalesced_kernel<<<kBlocks, kThreads>>>(x, y);
    strided_kernel<<<kBlocks, kThreads>>>(x, y);
    vec16_kernel<<<kBlocks, kThreads>>>(reinterpret_cast<const float4*>(x), reinterpret_cast<float4*>(y));
    broadcast_kernel<<<kBlocks, kThreads>>>(x, y);
    square_kernel<<<kBlocks, kThreads>>>(x, y);
    divergent_kernel<<<kBlocks, kThreads>>>(x, y);
    bank_kernel<0><<<kBlocks, kThreads>>>(x, y);
    bank_kernel<1><<<kBlocks, kThreads>>>(x, y);
    reread_kernel<<<kBlocks, kThreads>>>(x, y);
    bf16_call_kernel<<<kBlocks, kThreads>>>(reinterpret_cast<const __nv_bfloat16*>(x), y);
    bf16_store_kernel<<<kBlocks, kThreads>>>(x, reinterpret_cast<__nv_bfloat16*>(y));
    float2_store_kernel<<<kBlocks, kThreads>>>(x, reinterpret_cast<float2*>(y));
    pair_kernel<<<kBlocks, kThreads>>>(x, y);
    walk_kernel<0><<<kBlocks, kThreads>>>(x, y);
    // The same walk predicted for 1056 blocks: 8 resident per SM, 64 warps interleaved, each warp's 32 lines (4 KiB)
    // times 64 is more than the 248 KiB of L1 left beside 8 KiB of shared carveout: every load misses.
    emu::profile_shape("walk, 8 blocks per SM", 132.0 * 8 / kBlocks, 0);
    walk_kernel<1><<<kBlocks, kThreads>>>(x, y);
    float* w;
    cudaMalloc(&w, 32 * sizeof(float));
    cudaMemset(w, 0, 32 * sizeof(float));
    emu::profile_shape("weight, 8 blocks per SM", 132.0 * 8 / kBlocks, 0);
    weight_kernel<<<kBlocks, kThreads>>>(x, w, y);
    emu::profile_shape("warp rows, 8 blocks per SM", 132.0 * 8 / kBlocks, 0);
    warp_row_kernel<<<kBlocks, kThreads>>>(x, y);
    float* rows;
    cudaMalloc(&rows, 16 * 16384 * sizeof(float));
    cudaMemset(rows, 0, 16 * 16384 * sizeof(float));
    few_blocks_kernel<<<1, kThreads>>>(rows, y);
    two_rows_kernel<<<1, kThreads>>>(rows, y);
    if (cudaDeviceSynchronize() != cudaSuccess) {
        std::puts("FAIL: a launch failed");
        return 1;
    }
    const auto p = read_profile(dir);
    const double warps = kBlocks * kThreads / 32;
    expect(p, "coalesced_kernel", "ld_sectors/request", 4);
    expect(p, "coalesced_kernel", "st_sectors/request", 4);
    expect(p, "coalesced_kernel", "ld_requests", warps);
    expect(p, "coalesced_kernel", "traffic_ratio", 1);
    expect(p, "coalesced_kernel", "barriers", 0);
    expect(p, "coalesced_kernel", "partial_requests", 0);
    expect(p, "strided_kernel", "ld_sectors/request", 32);
    // 128-byte lines per request (the time model's L1 term): one for a coalesced warp, one per lane 128 bytes apart,
    // four for 16-byte lanes; a broadcast is one.
    expect(p, "coalesced_kernel", "ld_lines/request", 1);
    expect(p, "strided_kernel", "ld_lines/request", 32);
    expect(p, "vec16_kernel", "ld_lines/request", 4);
    expect(p, "broadcast_kernel", "ld_lines/request", 1);
    // Barrier intervals with loads per block: one, or two when a barrier separates two reads.
    expect(p, "coalesced_kernel", "load_phases", 1);
    expect(p, "reread_kernel", "load_phases", 2);
    // Of those, the round trips beyond L1 in a warm block (the second): the re-read hits L1, so one.
    expect(p, "coalesced_kernel", "miss_phases", 1);
    expect(p, "reread_kernel", "miss_phases", 1);
    expect(p, "strided_kernel", "st_sectors/request", 4);
    expect(p, "vec16_kernel", "ld_sectors/request", 16);
    expect(p, "broadcast_kernel", "ld_sectors/request", 1);
    expect(p, "square_kernel", "ld_requests", warps);
    expect(p, "divergent_kernel", "ld_sectors/request", 2);
    expect(p, "divergent_kernel", "partial_requests", 2 * warps);
    // 4 column stores per lane: 32 lanes in one bank each time (32 wavefronts, 31 conflicts); the broadcast and the
    // two broadcast reads are conflict-free: (4 * 31) / (4 + 2) per request. A row of 33 floats: none.
    expect(p, "bank_kernel<0>", "sh_bank_conflicts", warps * 4 * 31);
    expect(p, "bank_kernel<0>", "conflicts/request", 4.0 * 31 / 6);
    expect(p, "bank_kernel<0>", "barriers", kBlocks);
    expect(p, "bank_kernel<1>", "sh_bank_conflicts", 0);
    expect(p, "bank_kernel<1>", "sh_wavefronts", warps * 6);
    expect(p, "reread_kernel", "ld_requests", 2 * warps);
    expect(p, "reread_kernel", "traffic_ratio", 1);
    expect(p, "reread_kernel", "sector_ratio", 1.5);
    expect(p, "bf16_call_kernel", "ld_requests", warps);
    expect(p, "bf16_call_kernel", "ld_sectors/request", 2);
    // The L1 model (as emulated): a reread and a pair's second load hit; a broadcast misses once, in the first warp;
    // the walk's next three loads hit unless the SM's 64 interleaved warps evict its lines first.
    expect(p, "reread_kernel", "l1_hit", 4 * warps);
    expect(p, "reread_kernel", "l1_miss", 4 * warps);
    expect(p, "coalesced_kernel", "l1_hit", 0);
    expect(p, "broadcast_kernel", "l1_miss", 1);
    expect(p, "broadcast_kernel", "l1_hit", warps - 1);
    expect(p, "pair_kernel", "l1_hit", 8 * warps);
    expect(p, "pair_kernel", "l1_miss", 8 * warps);
    expect(p, "walk_kernel<0>", "l1_hit", 3 * 32 * warps);
    expect(p, "walk_kernel<1>", "l1_hit", 0);
    expect(p, "walk_kernel<1>", "l1_bytes", 248 * 1024);
    expect(p, "walk_kernel<1>", "concurrent_blocks", 132 * 8);
    // The weight: the first block misses it twice (no other block has read it yet, and its own 32 KiB x 8 resident
    // blocks evicts it), the three later blocks hit it twice, the second time because it is shared by then; the
    // block's own 32 loads per warp miss. So the warm block (the second) waits beyond L1 once.
    expect(p, "weight_kernel", "l1_hit", 3 * 2 * 4);
    expect(p, "weight_kernel", "l1_miss", 2 * 4 + 32 * 4 * 32);
    expect(p, "weight_kernel", "miss_phases", 1);
    // One warp per row: its re-read after the shuffles hits L1 (16 requests of 4 sectors a warp, each pass).
    expect(p, "warp_row_kernel", "l1_hit", 16 * 4 * warps);
    expect(p, "warp_row_kernel", "l1_miss", 16 * 4 * warps);
    // One block on one SM: its 8 warps' rows (512 KiB) evict each other before the re-read (2048 sectors a pass).
    expect(p, "few_blocks_kernel", "l1_hit", 0);
    expect(p, "few_blocks_kernel", "l1_miss", 2 * 2048 * 8);
    // A round trip per row read (pass 1, re-read) per warp: the warp's shuffles split its barrier interval. One warp
    // per row whose re-read hits L1 waits once; a barrier interval counts once however many warps miss in it.
    expect(p, "few_blocks_kernel", "miss_phases", 2);
    expect(p, "two_rows_kernel", "miss_phases", 3);
    expect(p, "warp_row_kernel", "miss_phases", 1);
    // Predicted for 4 blocks (4 SMs): the 4 cold SMs miss what the first block missed, once each.
    expect(p, "broadcast_kernel", "predicted_l1_hit_sectors", warps - 4);
    // Each instance its own registers, found from the function its accesses are in.
    expect(p, "bank_kernel<0>", "regs", 40);
    expect(p, "bank_kernel<1>", "regs", 64);
    expect(p, "bf16_store_kernel", "st_requests", warps);
    expect(p, "bf16_store_kernel", "st_sectors/request", 2);
    expect(p, "bf16_store_kernel", "ld_sectors/request", 4);
    expect(p, "float2_store_kernel", "st_requests", warps);
    expect(p, "float2_store_kernel", "st_sectors/request", 8);
    // The picture of the conflicted kernel: its template name escaped for XML, the conflicting store coloured.
    std::ifstream svg(std::string(dir) + "/warp-bank_kernel_0_.svg");
    const std::string pic((std::istreambuf_iterator<char>(svg)), std::istreambuf_iterator<char>());
    const bool pic_ok = pic.find("bank_kernel&lt;0&gt;") != std::string::npos &&
                        pic.find("shared 4 B x 32: bank conflict") != std::string::npos &&
                        pic.find("bank_kernel<0>") == std::string::npos;
    std::printf("%-4s warp-bank_kernel_0_.svg (%zu bytes)\n", pic_ok ? "ok" : "FAIL", pic.size());
    failures += !pic_ok;
    std::puts(failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}
