// Planted bugs, each next to its fixed version, built like a student's file (emu_add_executable) and run by the real
// engine: `planted <case>` runs one case and exits 0 when the emulator reported exactly what it should (the bug with
// its file:line, thread and block; nothing for the fixed version, whose results are also checked).
#include <cuda_bf16.h>
#include <emu/api.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

// Comments of the form `@name` tag the lines the reports must name (found at run time in this very file).
__global__ void broadcast_kernel(const float* in, float* out, bool barrier) {
    __shared__ float value;
    if (threadIdx.x == 0) value = in[blockIdx.x];  // @bcast-write
    if (barrier) __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = value;  // @bcast-read
}

__global__ void block_sum_kernel(const float* in, float* out, bool barrier) {
    __shared__ float partial[32];
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
    if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = v;  // @partial-write
    if (barrier) __syncthreads();
    if (threadIdx.x == 0) {
        float total = 0.f;
        for (unsigned w = 0; w < blockDim.x / 32; ++w) total += partial[w];  // @partial-read
        out[blockIdx.x] = total;
    }
}

__global__ void one_slot_kernel(float* out, bool only_first) {
    __shared__ float slot;
    if (!only_first || threadIdx.x == 0) slot = float(threadIdx.x);  // @slot-write
    __syncthreads();
    out[threadIdx.x] = slot;
}

__global__ void partial_fill_kernel(float* out, unsigned filled) {
    __shared__ float buf[64];
    if (threadIdx.x < filled) buf[threadIdx.x] = 1.f;
    __syncthreads();
    out[threadIdx.x] = buf[63 - threadIdx.x];  // @uninit-read
}

__global__ void copy_kernel(const float* in, float* out, int n, bool inclusive) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (inclusive ? i <= n : i < n) out[i] = in[i];  // @copy
}

// The row before row 0: a shifted index with no guard for the first rows.
__global__ void previous_row_kernel(const float* in, float* out, int width) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i - width];  // @previous-row
}

__global__ void ldg_copy_kernel(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) out[i] = __ldg(&in[i]);  // @ldg
}

// The copy through the C library with a size g++ cannot inline (a call): checked since session 8
// (include/emu/checked_libc.hpp); before, thread n read past `in` unseen.
__global__ void memcpy_copy_kernel(const float* in, float* out, int n, int count) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) memcpy(&out[i], &in[i], sizeof(float) * count);  // @memcpy
}

__global__ void shared_stage_kernel(float* out, unsigned limit) {
    __shared__ float stage[32];
    float* p = stage;
    if (threadIdx.x < limit) p[threadIdx.x] = float(threadIdx.x);  // @stage-write
    __syncthreads();
    if (threadIdx.x < 32) out[threadIdx.x] = stage[threadIdx.x];
}

__global__ void shared_index_kernel(float* out, unsigned limit) {
    __shared__ float stage[32];
    if (threadIdx.x < limit) stage[threadIdx.x] = float(threadIdx.x);  // @stage-index
    __syncthreads();
    if (threadIdx.x < 32) out[threadIdx.x] = stage[threadIdx.x];
}

__global__ void float4_sum_kernel(const float* in, float* out) {
    const float4 v = reinterpret_cast<const float4*>(in)[threadIdx.x];  // @float4-load
    out[threadIdx.x] = v.x + v.y + v.z + v.w;
}

struct alignas(16) Pack8 {
    __nv_bfloat16 h[8];
};

__global__ void pack_first_kernel(const __nv_bfloat16* in, float* out) {
    const Pack8 p = reinterpret_cast<const Pack8*>(in)[threadIdx.x];  // @pack-load
    out[threadIdx.x] = __bfloat162float(p.h[0]);
}

__global__ void tree_sum_kernel(const float* in, float* out) {
    __shared__ float buf[256];
    buf[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = buf[0];
}

__global__ void bf16_neighbours_kernel(__nv_bfloat16* out) {
    __shared__ __nv_bfloat16 vals[256];
    vals[threadIdx.x] = __float2bfloat16(float(threadIdx.x));
    __syncthreads();
    out[threadIdx.x] = vals[threadIdx.x ^ 1u];
}

__global__ void to_bf16_kernel(const float* in, __nv_bfloat16* out, int n, bool inclusive) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (inclusive ? i <= n : i < n) out[i] = __float2bfloat16(in[i % n]);  // @bf16-store
}

__global__ void histogram_kernel(const int* in, int* bins) {
    __shared__ int local[4];
    if (threadIdx.x < 4) local[threadIdx.x] = 0;
    __syncthreads();
    atomicAdd(&local[in[threadIdx.x] % 4], 1);
    __syncthreads();
    if (threadIdx.x < 4) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

// Thread 0 stages a value in global memory for the rest of its block.
__global__ void global_stage_kernel(float* scratch, float* out, bool barrier) {
    if (threadIdx.x == 0) scratch[blockIdx.x] = float(blockIdx.x + 1);  // @gstage-write
    if (barrier) __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = scratch[blockIdx.x];  // @gstage-read
}

// Block 0 leaves a value for block 1: nothing orders two blocks of one launch.
__global__ void handoff_kernel(int* cell, int* out) {
    if (blockIdx.x == 0 && threadIdx.x == 0) cell[0] = 42;      // @handoff-write
    if (blockIdx.x == 1 && threadIdx.x == 0) out[0] = cell[0];  // @handoff-read
}

// Block 1 updates a value block 0 read: it may run first on a GPU.
__global__ void overwrite_kernel(float* data, float* out) {
    if (threadIdx.x == 0) {
        if (blockIdx.x == 0) {
            out[0] = data[0];  // @ow-read
        } else {
            const float v = data[0];
            data[0] = v + 1.f;  // @ow-write
        }
    }
}

// Every block (one warp) adds its sum into one total: a plain read-modify-write races with the other blocks, atomicAdd does not.
__global__ void grid_total_kernel(const float* in, float* total, bool atomic) {
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
    if (threadIdx.x == 0) {
        if (atomic) atomicAdd(total, v);
        else *total += v;  // @total-add
    }
}

// Every thread adds its index to one total behind a lock: taken with atomicCAS and a fence, released with a fence and
// atomicExch (CUDA by Example's Lock), one lane of a warp at a time as its hash table does. The fences and atomics
// order the critical sections, which no barrier does. With `one_side`, only thread 0 fences and writes; thread 1
// reads without any ordering: a race.
__global__ void fenced_lock_kernel(int* mutex, int* total, int* out, bool one_side) {
    if (one_side) {
        if (threadIdx.x == 0) {
            total[0] = 7;  // @oneside-write
            __threadfence();
        }
        if (threadIdx.x == 1) out[0] = total[0];  // @oneside-read
        return;
    }
    for (int i = 0; i < 32; ++i) {
        if (threadIdx.x % 32 == i) {
            while (atomicCAS(mutex, 0, 1) != 0) {}
            __threadfence();
            total[0] += threadIdx.x;
            __threadfence();
            atomicExch(mutex, 0);
        }
    }
}

// Every lane of warp 0 stores the block's value to one global slot and one shared slot, and every block raises one
// flag: several threads storing the same value is not a race (compute-sanitizer's racecheck agrees), different values
// are.
__global__ void same_value_kernel(const float* in, float* slot, int* flag, float* out, bool same) {
    __shared__ float s;
    if (threadIdx.x < 32) {
        const float v = same ? in[blockIdx.x] : in[blockIdx.x] + float(threadIdx.x);
        slot[blockIdx.x] = v;  // @same-global
        s = v;                 // @same-shared
    }
    if (threadIdx.x == 0) flag[0] = 1;  // @same-flag
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = s + slot[blockIdx.x];
}

// A register cache filled only where the column exists: the other elements are whatever the thread's registers held.
__global__ void local_cache_kernel(const float* in, float* out, int n, bool zero_fill) {
    float cache[4];
    for (int i = 0; i < 4; ++i) {
        const int col = threadIdx.x + i * blockDim.x;
        if (col < n) cache[i] = in[col];
        else if (zero_fill) cache[i] = 0.f;
    }
    float sum = 0.f;
    for (int i = 0; i < 4; ++i) sum += cache[i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// ---- harness ---------------------------------------------------------------------------------------------------

int g_failures = 0;

void expect(bool ok, const std::string& what) {
    if (!ok) {
        std::fprintf(stderr, "EXPECTATION FAILED: %s\n", what.c_str());
        ++g_failures;
    }
}

// "<this file>:<line>" of the line tagged `@marker`.
std::string here(const std::string& marker) {
    FILE* f = std::fopen(__FILE__, "r");
    if (!f) return "(cannot read " + std::string(__FILE__) + ")";
    char buf[512];
    int line = 0, found = 0;
    while (!found && std::fgets(buf, sizeof buf, f)) {
        ++line;
        if (std::strstr(buf, ("// @" + marker + "\n").c_str())) found = line;
    }
    std::fclose(f);
    return std::string(__FILE__) + ":" + std::to_string(found);
}

// Exactly one diagnostic of `kind` mentioning every needle.
void expect_one(const std::string& kind, const std::vector<std::string>& needles) {
    std::vector<std::string> ds = emu::take_diagnostics();
    expect(ds.size() == 1, "one diagnostic, got " + std::to_string(ds.size()));
    for (const auto& d : ds) {
        expect(d.rfind("[" + kind + "]", 0) == 0, "kind " + kind + " in: " + d);
        for (const auto& n : needles) expect(d.find(n) != std::string::npos, "'" + n + "' in: " + d);
    }
}

void expect_none() {
    std::vector<std::string> ds = emu::take_diagnostics();
    for (const auto& d : ds) expect(false, "no diagnostic, got: " + d);
}

template <class T>
T* device(const std::vector<T>& host) {
    T* p = nullptr;
    cudaMalloc(&p, host.size() * sizeof(T));
    cudaMemcpy(p, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
    return p;
}

template <class T>
std::vector<T> back(const T* p, std::size_t n) {
    std::vector<T> h(n);
    cudaMemcpy(h.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost);
    return h;
}

cudaError_t finish() {
    cudaError_t e = cudaDeviceSynchronize();
    cudaGetLastError();
    return e;
}

void broadcast(bool bug) {
    float* in = device(std::vector<float>{5.f, 6.f});
    float* out = device(std::vector<float>(128, 0.f));
    broadcast_kernel<<<2, 64>>>(in, out, !bug);
    expect(finish() == cudaSuccess, "the racy launch still completes");
    if (bug) {
        expect_one("race", {"Write access at " + here("bcast-write") + " by thread (0,0,0)",
                            "Read access at " + here("bcast-read"), "in block (0,0,0)", "on __shared__ value",
                            "__syncthreads()"});
    } else {
        expect_none();
        auto h = back(out, 128);
        expect(h[0] == 5.f && h[63] == 5.f && h[64] == 6.f && h[127] == 6.f, "broadcast values");
    }
}

void cross_warp(bool bug) {
    std::vector<float> ones(256, 1.f);
    float* in = device(ones);
    float* out = device(std::vector<float>(1, 0.f));
    block_sum_kernel<<<1, 256>>>(in, out, !bug);
    expect(finish() == cudaSuccess, "launch completes");
    if (bug) {
        std::vector<std::string> ds = emu::take_diagnostics();
        bool race = false;
        for (const auto& d : ds) {
            if (d.rfind("[race]", 0) == 0 && d.find(here("partial-write")) != std::string::npos &&
                d.find(here("partial-read")) != std::string::npos && d.find("__syncthreads()") != std::string::npos)
                race = true;
            else if (d.rfind("[uninitialized-shared]", 0) != 0) expect(false, "unexpected: " + d);
        }
        expect(race, "a race between the partial write and the cross-warp read");
    } else {
        expect_none();
        expect(back(out, 1)[0] == 256.f, "block sum");
    }
}

void waw(bool bug) {
    float* out = device(std::vector<float>(64, -1.f));
    one_slot_kernel<<<1, 64>>>(out, !bug);
    expect(finish() == cudaSuccess, "launch completes");
    if (bug) {
        expect_one("race", {"Write access at " + here("slot-write"), "and Write access at " + here("slot-write"),
                            "[63 hazards"});
    } else {
        expect_none();
    }
}

void uninit(bool bug) {
    float* out = device(std::vector<float>(64, 0.f));
    partial_fill_kernel<<<1, 64>>>(out, bug ? 60 : 64);
    expect(finish() == cudaSuccess, "launch completes");
    if (bug) {
        expect_one("uninitialized-shared",
                   {"at " + here("uninit-read"), "by thread (0,0,0)", "bytes 252..255 of 256", "[4 reads"});
    } else {
        expect_none();
    }
}

void oob_global(bool bug) {
    const int n = 1000;
    float* in = device(std::vector<float>(n, 2.f));
    float* out = device(std::vector<float>(n + 24, 0.f));
    copy_kernel<<<4, 256>>>(in, out, n, bug);
    cudaError_t e = finish();
    if (bug) {
        expect(e == cudaErrorIllegalAddress, "cudaErrorIllegalAddress");
        expect_one("out-of-bounds", {"Invalid __global__ read of size 4 bytes", "at " + here("copy"),
                                     "by thread (232,0,0) in block (3,0,0)", "0 bytes after the end",
                                     "of 4000 bytes made at " + std::string(__FILE__)});
        cudaDeviceReset();
    } else {
        expect(e == cudaSuccess, "success");
        expect_none();
    }
}

// A read far before the process's first buffer, below its guard zone: still reported (device_memory.cpp's lead gap),
// not a silent read of whatever the process has mapped there.
void oob_before_first() {
    const int width = 300;  // floats: 1200 bytes, past the 256-byte guard
    float* in = device(std::vector<float>(4 * width, 1.f));
    float* out = device(std::vector<float>(4 * width, 0.f));
    previous_row_kernel<<<1, 32>>>(in, out, width);
    cudaError_t e = finish();
    expect(e == cudaErrorIllegalAddress, "cudaErrorIllegalAddress");
    expect_one("out-of-bounds",
               {"Invalid __global__ read of size 4 bytes", "at " + here("previous-row"),
                "by thread (0,0,0) in block (0,0,0)", "1200 bytes before the start", "the first allocation"});
    cudaDeviceReset();
}

// A struct-valued store the instrumentation cannot see; the guard check after the launch still finds it.
void oob_bf16_store(bool bug) {
    const int n = 100;
    float* in = device(std::vector<float>(n, 1.f));
    __nv_bfloat16* out = device(std::vector<__nv_bfloat16>(n));
    to_bf16_kernel<<<1, 128>>>(in, out, n, bug);
    cudaError_t e = finish();
    if (bug) {
        // The struct the conversion returns is stored through emu-nvcc's stored_value(), so the store is checked
        // when it happens, at its line and thread, not found in the guard zone after the launch.
        expect(e == cudaErrorIllegalAddress, "cudaErrorIllegalAddress");
        expect_one("out-of-bounds",
                   {"Invalid __global__ write of size 2 bytes", "at " + here("bf16-store"),
                    "by thread (100,0,0) in block (0,0,0)", "0 bytes after the end of an allocation", "of 200 bytes"});
        cudaDeviceReset();
    } else {
        expect(e == cudaSuccess, "success");
        expect_none();
    }
}

// Under any schedule a missing barrier shows up: as a race, and where readers ran first, as uninitialized reads.
void broadcast_any_order() {
    float* in = device(std::vector<float>{5.f, 6.f});
    float* out = device(std::vector<float>(128, 0.f));
    broadcast_kernel<<<2, 64>>>(in, out, false);
    expect(finish() == cudaSuccess, "the racy launch still completes");
    bool race = false;
    for (const auto& d : emu::take_diagnostics()) {
        if (d.rfind("[race]", 0) == 0 && d.find(here("bcast-write")) != std::string::npos &&
            d.find(here("bcast-read")) != std::string::npos)
            race = true;
        else if (d.rfind("[uninitialized-shared]", 0) != 0 || d.find(here("bcast-read")) == std::string::npos)
            expect(false, "unexpected: " + d);
    }
    expect(race, "a race between the broadcast write and the reads");
}

// The read happens inside the emulator's __ldg: the report names the student's line that called it.
void oob_through_ldg() {
    float* in = device(std::vector<float>(64, 2.f));
    float* out = device(std::vector<float>(65, 0.f));
    ldg_copy_kernel<<<1, 65>>>(in, out, 64);
    expect(finish() == cudaErrorIllegalAddress, "cudaErrorIllegalAddress");
    expect_one("out-of-bounds", {"Invalid __global__ read of size 4 bytes", "at " + here("ldg"), "by thread (64,0,0)"});
    cudaDeviceReset();
}

void oob_through_memcpy() {
    float* in = device(std::vector<float>(64, 2.f));
    float* out = device(std::vector<float>(65, 0.f));
    memcpy_copy_kernel<<<1, 65>>>(in, out, 64, 1);
    expect(finish() == cudaErrorIllegalAddress, "cudaErrorIllegalAddress");
    expect_one("out-of-bounds",
               {"Invalid __global__ read of size 4 bytes", "at " + here("memcpy"), "by thread (64,0,0)"});
    cudaDeviceReset();
}

// Host code may read managed memory, but not cudaMalloc memory: that ends the program (exit status and message are
// checked by CTest).
void host_read(bool managed) {
    float* p = nullptr;
    if (managed) cudaMallocManaged(&p, 16 * sizeof(float));
    else cudaMalloc(&p, 16 * sizeof(float));
    cudaMemset(p, 0, 16 * sizeof(float));
    float v = p[3];  // @host-read
    expect(v == 0.f, "managed memory reads back");
    expect_none();
}

void oob_shared(bool bug) {
    float* out = device(std::vector<float>(64, 0.f));
    shared_stage_kernel<<<1, 64>>>(out, bug ? 33 : 32);
    cudaError_t e = finish();
    if (bug) {
        expect(e == cudaErrorIllegalAddress, "cudaErrorIllegalAddress");
        expect_one("out-of-bounds", {"Invalid __shared__ write of size 4 bytes", "at " + here("stage-write"),
                                     "by thread (32,0,0)", "0 bytes past the end of __shared__ stage (128 bytes)"});
        cudaDeviceReset();
    } else {
        expect(e == cudaSuccess, "success");
        expect_none();
    }
}

// Indexing the array itself: UBSan's bounds check sees it first; the emulator turns that into the same report.
void oob_shared_index(bool bug) {
    float* out = device(std::vector<float>(64, 0.f));
    shared_index_kernel<<<2, 64>>>(out, bug ? 33 : 32);
    cudaError_t e = finish();
    if (bug) {
        expect(e == cudaErrorIllegalAddress, "cudaErrorIllegalAddress");
        expect_one("out-of-bounds", {"Index 32 out of bounds for type 'float [32]'", "at " + here("stage-index"),
                                     "by thread (32,0,0) in block (0,0,0)"});
        cudaDeviceReset();
    } else {
        expect(e == cudaSuccess, "success");
        expect_none();
    }
}

void use_after_free() {
    float* in = device(std::vector<float>(64, 1.f));
    float* out = device(std::vector<float>(64, 0.f));
    cudaFree(in);
    copy_kernel<<<1, 64>>>(in, out, 64, false);
    expect(finish() == cudaErrorIllegalAddress, "cudaErrorIllegalAddress");
    expect_one("use-after-free", {"at " + here("copy"), "by thread (0,0,0)", "released by cudaFree"});
    cudaDeviceReset();
}

void misaligned_float4(bool bug) {
    float* buf = device(std::vector<float>(68, 1.f));
    float* out = device(std::vector<float>(16, 0.f));
    float4_sum_kernel<<<1, 16>>>(bug ? buf + 1 : buf, out);
    cudaError_t e = finish();
    if (bug) {
        expect(e == cudaErrorMisalignedAddress, "cudaErrorMisalignedAddress");
        expect_one("misaligned", {"Invalid __global__ read of size 16 bytes", "at " + here("float4-load"),
                                  "by thread (0,0,0)", "byte 4 of an allocation"});
        cudaDeviceReset();
    } else {
        expect(e == cudaSuccess, "success");
        expect_none();
        expect(back(out, 16)[15] == 4.f, "float4 sums");
    }
}

void misaligned_struct(bool bug) {
    __nv_bfloat16* buf = device(std::vector<__nv_bfloat16>(72, __float2bfloat16(1.f)));
    float* out = device(std::vector<float>(8, 0.f));
    pack_first_kernel<<<1, 8>>>(bug ? buf + 3 : buf, out);
    cudaError_t e = finish();
    if (bug) {
        expect(e == cudaErrorMisalignedAddress, "cudaErrorMisalignedAddress");
        expect_one("misaligned",
                   {"Invalid __global__ read of size 16 bytes", "at " + here("pack-load"), "byte 6 of an allocation"});
        cudaDeviceReset();
    } else {
        expect(e == cudaSuccess, "success");
        expect_none();
    }
}

void correct_kernels() {
    std::vector<float> x(512);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = float(i % 7);
    float* in = device(x);
    float* sums = device(std::vector<float>(2, 0.f));
    tree_sum_kernel<<<2, 256>>>(in, sums);
    expect(finish() == cudaSuccess, "tree launch");
    auto s = back(sums, 2);
    float want0 = 0, want1 = 0;
    for (int i = 0; i < 256; ++i) want0 += x[i], want1 += x[256 + i];
    expect(s[0] == want0 && s[1] == want1, "tree sums");

    __nv_bfloat16* b = device(std::vector<__nv_bfloat16>(256));
    bf16_neighbours_kernel<<<1, 256>>>(b);
    expect(finish() == cudaSuccess, "bf16 launch");
    expect(__bfloat162float(back(b, 256)[6]) == 7.f, "bf16 neighbour value");

    std::vector<int> keys(128);
    for (int i = 0; i < 128; ++i) keys[i] = i;
    int* k = device(keys);
    int* bins = device(std::vector<int>(4, 0));
    histogram_kernel<<<3, 128>>>(k, bins);
    expect(finish() == cudaSuccess, "histogram launch");
    expect(back(bins, 4)[2] == 96, "histogram bins");
    expect_none();
}

void global_stage(bool bug) {
    float* scratch = device(std::vector<float>(2, 0.f));
    float* out = device(std::vector<float>(128, 0.f));
    global_stage_kernel<<<2, 64>>>(scratch, out, !bug);
    expect(finish() == cudaSuccess, "the racy launch still completes");
    if (bug) {
        expect_one("race",
                   {"Write access at " + here("gstage-write") + " by thread (0,0,0)",
                    "and Read access at " + here("gstage-read") + " by thread (1,0,0) in block (0,0,0)",
                    "on global memory, bytes 0..3 of an allocation", "of 8 bytes made at " + std::string(__FILE__),
                    "a __syncthreads() between the write and the read is missing", "[126 hazards"});
    } else {
        expect_none();
        auto h = back(out, 128);
        expect(h[0] == 1.f && h[63] == 1.f && h[64] == 2.f && h[127] == 2.f, "staged values");
    }
}

void handoff() {
    int* cell = device(std::vector<int>(1, 0));
    int* out = device(std::vector<int>(1, 0));
    handoff_kernel<<<2, 32>>>(cell, out);
    expect(finish() == cudaSuccess, "the racy launch still completes");
    expect_one("race", {"Write access at " + here("handoff-write") + " by thread (0,0,0) in block (0,0,0)",
                        "and Read access at " + here("handoff-read") + " by thread (0,0,0) in block (1,0,0)",
                        "on global memory, bytes 0..3", "no barrier orders the blocks of a launch", "[1 hazard "});
    // A later launch is ordered after this one: reading the value there is fine.
    handoff_kernel<<<1, 32>>>(out, cell);
    expect(finish() == cudaSuccess, "second launch");
    expect_none();
}

void overwrite() {
    float* data = device(std::vector<float>(1, 3.f));
    float* out = device(std::vector<float>(1, 0.f));
    overwrite_kernel<<<2, 32>>>(data, out);
    expect(finish() == cudaSuccess, "the racy launch still completes");
    expect_one("race", {"Read access at " + here("ow-read") + " by thread (0,0,0) in block (0,0,0)",
                        "and Write access at " + here("ow-write") + " by thread (0,0,0) in block (1,0,0)",
                        "one block overwrites what another block of the same launch reads"});
}

void grid_total(bool atomic) {
    std::vector<float> ones(8 * 32, 1.f);
    float* in = device(ones);
    float* total = device(std::vector<float>(1, 0.f));
    grid_total_kernel<<<8, 32>>>(in, total, atomic);
    expect(finish() == cudaSuccess, "launch completes");
    std::vector<std::string> ds = emu::take_diagnostics();
    if (atomic) {
        for (const auto& d : ds) expect(false, "no diagnostic, got: " + d);
        expect(back(total, 1)[0] == 256.f, "grid total");
    } else {
        bool raw = false;
        for (const auto& d : ds) {
            expect(d.rfind("[race]", 0) == 0 && d.find("no barrier orders the blocks") != std::string::npos,
                   "only races between blocks: " + d);
            raw |= d.find("Write access at " + here("total-add") +
                          " by thread (0,0,0) in block (0,0,0)\n    and Read "
                          "access at " +
                          here("total-add") + " by thread (0,0,0) in block (1,0,0)") != std::string::npos;
        }
        expect(raw, "block 1 reads the total block 0 wrote");
    }
}

void same_value(bool same) {
    std::vector<float> vals{3.f, 5.f};
    float* in = device(vals);
    float* slot = device(std::vector<float>(2, 0.f));
    int* flag = device(std::vector<int>(1, 0));
    float* out = device(std::vector<float>(128, 0.f));
    same_value_kernel<<<2, 64>>>(in, slot, flag, out, same);
    expect(finish() == cudaSuccess, "launch completes");
    if (same) {
        expect_none();
        auto h = back(out, 128);
        expect(h[0] == 6.f && h[127] == 10.f, "same-value results");
    } else {
        std::vector<std::string> ds = emu::take_diagnostics();
        expect(ds.size() == 2, "two diagnostics, got " + std::to_string(ds.size()));
        bool global = false, shared = false;
        for (const auto& d : ds) {
            global |= d.find("Write access at " + here("same-global") + " by thread (0,0,0)\n    and Write access at " +
                             here("same-global") + " by thread (1,0,0)") != std::string::npos &&
                      d.find("on global memory") != std::string::npos && d.find("[62 hazards") != std::string::npos;
            shared |= d.find("Write access at " + here("same-shared")) != std::string::npos &&
                      d.find("on __shared__ s") != std::string::npos && d.find("[62 hazards") != std::string::npos;
        }
        expect(global && shared, "write-write races on the global and the shared slot");
    }
}

void fenced_lock(bool one_side) {
    int* mutex = device(std::vector<int>(1, 0));
    int* total = device(std::vector<int>(1, 0));
    int* out = device(std::vector<int>(1, 0));
    fenced_lock_kernel<<<1, 64>>>(mutex, total, out, one_side);
    expect(finish() == cudaSuccess, "the lock launch completes");
    if (one_side) {
        expect_one("race", {"Write access at " + here("oneside-write") + " by thread (0,0,0)",
                            "and Read access at " + here("oneside-read") + " by thread (1,0,0) in block (0,0,0)"});
    } else {
        expect_none();
        expect(back(total, 1)[0] == 63 * 64 / 2, "every thread added behind the lock");
    }
}

// Under any schedule the missing barrier is reported: readers that ran after the write (read after write), or before
// it (the write then overwrites what they read).
void global_stage_any_order() {
    float* scratch = device(std::vector<float>(2, 0.f));
    float* out = device(std::vector<float>(128, 0.f));
    global_stage_kernel<<<2, 64>>>(scratch, out, false);
    expect(finish() == cudaSuccess, "the racy launch still completes");
    bool race = false;
    for (const auto& d : emu::take_diagnostics()) {
        expect(d.rfind("[race]", 0) == 0, "only races: " + d);
        race |= d.find(here("gstage-write")) != std::string::npos && d.find(here("gstage-read")) != std::string::npos &&
                d.find("on global memory") != std::string::npos;
    }
    expect(race, "a race between the staged write and the reads");
}

// Uninitialized elements read as NaN on every launch, whatever ran on the pooled stacks before (here: the same
// kernel with zeros in them).
void local_cache(bool bug) {
    const int n = 200;  // 64 threads x 4 items: threads 8..63 leave their last item unset
    float* in = device(std::vector<float>(n, 1.f));
    float* out = device(std::vector<float>(128, 0.f));
    for (int round = 0; round < 3; ++round) {
        local_cache_kernel<<<2, 64>>>(in, out, n, true);
        expect(finish() == cudaSuccess, "zero-filled launch");
        local_cache_kernel<<<2, 64>>>(in, out, n, !bug);
        expect(finish() == cudaSuccess, "launch completes");
        auto h = back(out, 128);
        for (int b = 0; b < 2; ++b) {
            for (int t = 0; t < 64; ++t) {
                const float got = h[b * 64 + t];
                unsigned bits = 0;
                std::memcpy(&bits, &got, sizeof bits);
                // A NaN computed from the poison, not the all-ones pattern tests use to spot outputs never written.
                if (bug && t >= 8)
                    expect(got != got && bits != 0xffffffffu, "NaN from the unset item of thread " + std::to_string(t));
                else expect(got == (t < 8 ? 4.f : 3.f), "sum of thread " + std::to_string(t));
            }
        }
    }
    expect_none();
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s <case>\n", argv[0]);
        return 2;
    }
    const std::string c = argv[1];
    if (c == "broadcast") broadcast(true);
    else if (c == "broadcast-fixed") broadcast(false);
    else if (c == "cross-warp") cross_warp(true);
    else if (c == "cross-warp-fixed") cross_warp(false);
    else if (c == "waw") waw(true);
    else if (c == "waw-fixed") waw(false);
    else if (c == "uninit") uninit(true);
    else if (c == "uninit-fixed") uninit(false);
    else if (c == "oob-global") oob_global(true);
    else if (c == "oob-global-fixed") oob_global(false);
    else if (c == "oob-shared") oob_shared(true);
    else if (c == "oob-shared-fixed") oob_shared(false);
    else if (c == "use-after-free") use_after_free();
    else if (c == "oob-before-first") oob_before_first();
    else if (c == "oob-ldg") oob_through_ldg();
    else if (c == "oob-memcpy") oob_through_memcpy();
    else if (c == "host-read") host_read(false);
    else if (c == "host-read-managed") host_read(true);
    else if (c == "oob-shared-index") oob_shared_index(true);
    else if (c == "oob-shared-index-fixed") oob_shared_index(false);
    else if (c == "oob-bf16-store") oob_bf16_store(true);
    else if (c == "oob-bf16-store-fixed") oob_bf16_store(false);
    else if (c == "broadcast-any-order") broadcast_any_order();
    else if (c == "misaligned-float4") misaligned_float4(true);
    else if (c == "misaligned-float4-fixed") misaligned_float4(false);
    else if (c == "misaligned-struct") misaligned_struct(true);
    else if (c == "misaligned-struct-fixed") misaligned_struct(false);
    else if (c == "correct") correct_kernels();
    else if (c == "global-race") global_stage(true);
    else if (c == "global-race-fixed") global_stage(false);
    else if (c == "inter-block") handoff();
    else if (c == "inter-block-total") grid_total(false);
    else if (c == "inter-block-war") overwrite();
    else if (c == "inter-block-atomic") grid_total(true);
    else if (c == "same-value") same_value(true);
    else if (c == "different-value") same_value(false);
    else if (c == "fenced-lock") fenced_lock(false);
    else if (c == "fenced-one-side") fenced_lock(true);
    else if (c == "uninit-local") local_cache(true);
    else if (c == "uninit-local-fixed") local_cache(false);
    else if (c == "uninit-local-any-order") local_cache(true);
    else if (c == "global-race-any-order") global_stage_any_order();
    else {
        std::fprintf(stderr, "unknown case %s\n", c.c_str());
        return 2;
    }
    std::printf("%s: %s\n", c.c_str(), g_failures ? "FAILED" : "ok");
    return g_failures ? 1 : 0;
}
