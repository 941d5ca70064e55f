// Forms met in public CUDA programs (docs/emulator.md, "Public programs"), each checked against a CPU answer:
// launch brackets split the way Visual Studio formats them, lane ids and lane masks read with inline PTX, cooperative
// groups shuffling values wider than 8 bytes, the host calls of the samples' helper headers (the compute mode,
// the profiler's start and stop, NVTX ranges), and kernels launched from a table of kernel pointers or an object's
// member (NVIDIA's finite-difference blog code launches `fpDeriv[fp]<<<…>>>`), and dynamic parallelism as the
// samples' cdpSimplePrint uses it: kernels launching kernels two levels deep, one level into cudaStreamTailLaunch,
// each child reading what its parent wrote before the launch; a grid size computed in floating point
// (`<<<ceil(n / 32.0), 32>>>`) inside an NVTX range pushed with attributes, as the NVTX blog code writes both. Prints
// PASS when every check holds.
#include <cooperative_groups.h>
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>
#include <nvToolsExt.h>

#include <cstdio>

namespace cg = cooperative_groups;

// Each thread writes its lane as PTX reports it and the count of lower lanes from %lanemask_lt.
__global__ void lanes_from_ptx(unsigned* lane_out, unsigned* below_out) {
    unsigned lane, below_mask;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    asm volatile("mov.u32 %0, "
                 "%%lanemask_lt;"
                 : "=r"(below_mask));
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    lane_out[i] = lane;
    below_out[i] = __popc(below_mask);
}

struct Triple {
    float a, b, c;  // 12 bytes: more than one shuffle word
};

// A tile rotates a uint4 by one rank (shfl), a 12-byte struct moves up by two ranks (shfl_up) and the coalesced
// group of the even lanes swaps neighbours' uint4 (shfl_down).
__global__ void wide_shuffles(uint4* rotated, Triple* shifted, uint4* coalesced) {
    const auto tile = cg::tiled_partition<16>(cg::this_thread_block());
    const unsigned r = tile.thread_rank();
    const uint4 mine = make_uint4(r, r * 10, r * 100, r * 1000);
    rotated[threadIdx.x] = tile.shfl(mine, static_cast<int>((r + 1) % 16));
    const Triple t{static_cast<float>(r), r + 0.5f, r * 2.0f};
    shifted[threadIdx.x] = tile.shfl_up(t, 2);
    if (threadIdx.x % 2 == 0) {
        const auto evens = cg::coalesced_threads();
        coalesced[threadIdx.x / 2] = evens.shfl_down(mine, 1);
    }
}

__global__ void scale(float* x, float s, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= s;
}

__global__ void add(float* x, float s, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += s;
}

// A host launcher with its kernel's name, as llm.c's dev/cuda writes them: the launch picks the kernel by its arguments.
__global__ void subtract(float* x, float s, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] -= s;
}
void subtract(float* x, float s, int n, int block) { subtract<<<(n + block - 1) / block, block>>>(x, s, n); }

struct Step {
    void (*kernel)(float*, float, int);
    float value;
};

// Each block of the parent writes its base value, then its thread 0 launches a child grid over the block's slice;
// each child block launches a grandchild into the tail-launch stream, which adds its depth.
__global__ void grandchild_add(int* slice, int depth) { slice[threadIdx.x] += depth * 1000; }
__global__ void child_fill(int* slice, const int* base) {
    slice[threadIdx.x] = *base + static_cast<int>(threadIdx.x);
    __syncthreads();
    if (threadIdx.x == 0) grandchild_add<<<1, blockDim.x, 0, cudaStreamTailLaunch>>>(slice, 2);
}
__global__ void parent_launch(int* out, int* bases, int width) {
    if (threadIdx.x == 0) {
        bases[blockIdx.x] = 100 * static_cast<int>(blockIdx.x);
        child_fill<<<1, width>>>(out + blockIdx.x * width, bases + blockIdx.x);
        if (cudaGetLastError() != cudaSuccess) out[blockIdx.x * width] = -1;
    }
}

int main() {
    std::printf("sample forms: split launch brackets, inline PTX, wide group shuffles, helper-header calls, "
                "launches through kernel pointers\n");
    bool ok = true;
    auto expect = [&ok](bool cond, const char* what) {
        if (!cond) {
            std::printf("FAIL: %s\n", what);
            ok = false;
        }
    };

    int mode = -1;
    cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, 0);
    expect(mode == cudaComputeModeDefault && mode != cudaComputeModeProhibited, "the device is in the default mode");
    expect(cudaProfilerStart() == cudaSuccess && cudaProfilerStop() == cudaSuccess, "profiler start and stop");

    const int n = 96;  // three warps
    unsigned *lane = nullptr, *below = nullptr;
    cudaMallocManaged(&lane, n * sizeof(unsigned));
    cudaMallocManaged(&below, n * sizeof(unsigned));
    lanes_from_ptx<<<2, 48>>>(lane, below);  // two blocks of a warp and a half: lanes restart in each block
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i) expect(lane[i] == (i % 48) % 32 && below[i] == lane[i], "lane id and lane mask");

    uint4* rotated = nullptr;
    Triple* shifted = nullptr;
    uint4* coalesced = nullptr;
    cudaMallocManaged(&rotated, 32 * sizeof(uint4));
    cudaMallocManaged(&shifted, 32 * sizeof(Triple));
    cudaMallocManaged(&coalesced, 16 * sizeof(uint4));
    wide_shuffles<<<1, 32>>>(rotated, shifted, coalesced);
    cudaDeviceSynchronize();
    for (unsigned i = 0; i < 32; ++i) {
        const unsigned r = i % 16, next = (r + 1) % 16;
        expect(rotated[i].x == next && rotated[i].y == next * 10 && rotated[i].z == next * 100 &&
                   rotated[i].w == next * 1000,
               "tile.shfl of a uint4");
        const unsigned from = r >= 2 ? r - 2 : r;  // shfl_up keeps its own value below the distance
        expect(shifted[i].a == from && shifted[i].b == from + 0.5f && shifted[i].c == from * 2.0f,
               "tile.shfl_up of a 12-byte struct");
    }
    for (unsigned k = 0; k < 16; ++k) {
        const unsigned src = k < 15 ? 2 * (k + 1) : 2 * k;  // the next even lane, or itself at the end
        const unsigned sr = src % 16;
        expect(coalesced[k].x == sr && coalesced[k].w == sr * 1000, "coalesced shfl_down of a uint4");
    }

    float* x = nullptr;
    cudaMallocManaged(&x, n * sizeof(float));
    for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i);
    nvtxRangePushA("spaced launches");  // a profiler's range around them: nothing to record here
    scale << <(n + 31) / 32, 32 >> > (x, 2.0f, n);  // as Visual Studio formats a launch
    scale<<<1, n>> >(x, 0.5f, n);
    nvtxRangePop();
    expect(cudaDeviceSynchronize() == cudaSuccess, "both launches ran");
    for (int i = 0; i < n; ++i) expect(x[i] == static_cast<float>(i), "the spaced launches scaled by 2, then 0.5");

    nvtxEventAttributes_t attributes = {0};
    attributes.version = NVTX_VERSION;
    attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    attributes.colorType = NVTX_COLOR_ARGB;
    attributes.color = 0x0000ff00;
    attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
    attributes.message.ascii = "a grid counted in floating point";
    nvtxRangePushEx(&attributes);
    scale<<<ceil(n / 32.0), 32>>>(x, 3.0f, n);  // ceil returns a double: nvcc converts it to dim3's unsigned
    nvtxRangePop();
    expect(cudaDeviceSynchronize() == cudaSuccess, "the launch with a double grid size ran");
    for (int i = 0; i < n; ++i) expect(x[i] == 3.0f * i, "every element scaled once");
    scale<<<1, n>>>(x, 1.0f / 3.0f, n);
    for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i);  // exactly back, whatever the rounding above

    void (*table[2])(float*, float, int) = {scale, add};
    const Step steps[2] = {{add, 1.0f}, {scale, 3.0f}};
    const Step* last = &steps[1];
    for (int k = 0; k < 2; ++k) table[k]<<<(n + 63) / 64, 64>>>(x, 2.0f, n);  // x * 2 + 2
    steps[0].kernel<<<(n + 63) / 64, 64>>>(x, steps[0].value, n);             // + 1
    last->kernel<<<(n + 63) / 64, 64>>>(x, last->value, n);                     // * 3
    expect(cudaDeviceSynchronize() == cudaSuccess, "the launches through pointers ran");
    for (int i = 0; i < n; ++i) expect(x[i] == (2.0f * i + 3.0f) * 3.0f, "table[k], steps[0].kernel, last->kernel");
    subtract(x, 9.0f, n, 32);
    expect(cudaDeviceSynchronize() == cudaSuccess, "the launch from a host function of the kernel's name ran");
    for (int i = 0; i < n; ++i) expect(x[i] == 6.0f * i, "a kernel overloaded by its host launcher");

    int *tree = nullptr, *bases = nullptr;
    const int parents = 3, width = 8;
    cudaMallocManaged(&tree, parents * width * sizeof(int));
    cudaMallocManaged(&bases, parents * sizeof(int));
    parent_launch<<<parents, 32>>>(tree, bases, width);
    expect(cudaDeviceSynchronize() == cudaSuccess, "the parent grid and its children ran");
    for (int i = 0; i < parents * width; ++i)
        expect(tree[i] == 100 * (i / width) + i % width + 2000, "child and grandchild grids, from device code");
    cudaFree(tree);
    cudaFree(bases);
    cudaFree(lane);
    cudaFree(below);
    cudaFree(rotated);
    cudaFree(shifted);
    cudaFree(coalesced);
    cudaFree(x);
    std::printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
