// The copy study's kernels that need Hopper's own instructions (inline PTX, so not on the CPU emulator):
//   - bulk_copy_kernel: the copy as bulk asynchronous copies (TMA, cp.async.bulk) through shared memory: one thread
//     a block asks the copy engine of its multiprocessor for CHUNK bytes at a time into one of STAGES buffers, waits
//     on the buffer's mbarrier, and asks for the buffer to be written out; no data passes through registers, so the
//     bytes in flight are bounded by shared memory (STAGES * CHUNK a block), not by registers and threads;
//   - the grid-stride copy with programmatic dependent launch (PDL): the next launch in the stream may start its
//     blocks while this one drains, and waits (griddepcontrol.wait) for this one's completion and memory before its
//     first load: what the launch sequence, not one kernel, can take off the time between two copies.
// Used by copy_study.cu only.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "designs.cuh"

namespace copystudy {

__device__ __forceinline__ unsigned smem_address(const void* p) {
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// An mbarrier that one thread arms with the bytes it expects and waits on by phase parity.
__device__ __forceinline__ void mbar_init(unsigned bar) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar) : "memory");
}
__device__ __forceinline__ void mbar_init_fence() {
    // The barriers' initialisation made visible to the asynchronous proxy (the copy engine) before it completes one.
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
__device__ __forceinline__ void mbar_expect(unsigned bar, unsigned bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbar_wait(unsigned bar, unsigned parity) {
    unsigned done = 0;
    do {
        asm volatile(
            "{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}"
            : "=r"(done)
            : "r"(bar), "r"(parity)
            : "memory");
    } while (!done);
}
// global -> shared, completing `bytes` on the mbarrier; shared -> global in the thread's current bulk group.
__device__ __forceinline__ void bulk_load(unsigned smem, const void* gmem, unsigned bytes, unsigned bar) {
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(smem),
                 "l"(gmem), "r"(bytes), "r"(bar)
                 : "memory");
}
__device__ __forceinline__ void bulk_store(void* gmem, unsigned smem, unsigned bytes) {
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(gmem), "r"(smem), "r"(bytes)
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}
// Waits until at most N of this thread's bulk groups still read shared memory (the buffer of an older one is free).
template <int N>
__device__ __forceinline__ void bulk_wait_read() {
    asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(N) : "memory");
}
__device__ __forceinline__ void bulk_wait_all() { asm volatile("cp.async.bulk.wait_group 0;" ::: "memory"); }

// Block b copies chunks b, b + grid, b + 2 grid, … (CHUNK bytes, the last one shorter), STAGES buffers in turn:
// the loads of the next STAGES - 1 chunks are in flight while one chunk is written out. Thread 0 does everything.
template <int CHUNK, int STAGES>
__global__ void bulk_copy_kernel(char* __restrict__ dst, const char* __restrict__ src, size_t bytes) {
    static_assert(STAGES >= 2, "a buffer is refilled once the previous chunk's store has read it");
    static_assert(CHUNK % 16 == 0, "bulk copies move multiples of 16 bytes");
    extern __shared__ __align__(128) unsigned char buffers[];
    __shared__ __align__(8) unsigned long long bars[STAGES];
    if (threadIdx.x != 0) return;
    const size_t chunks = (bytes + CHUNK - 1) / CHUNK;
    const unsigned base = smem_address(buffers);
    for (int s = 0; s < STAGES; ++s) mbar_init(smem_address(&bars[s]));
    mbar_init_fence();
    auto chunk = [&](size_t i) { return blockIdx.x + i * gridDim.x; };  // this block's i-th chunk
    auto size = [&](size_t c) { return static_cast<unsigned>(bytes - c * CHUNK < CHUNK ? bytes - c * CHUNK : CHUNK); };
    auto load = [&](size_t i) {
        const size_t c = chunk(i);
        if (c >= chunks) return;
        const int s = static_cast<int>(i % STAGES);
        const unsigned bar = smem_address(&bars[s]);
        mbar_expect(bar, size(c));
        bulk_load(base + s * CHUNK, src + c * CHUNK, size(c), bar);
    };
    for (int i = 0; i < STAGES; ++i) load(i);
    for (size_t i = 0; chunk(i) < chunks; ++i) {
        const int s = static_cast<int>(i % STAGES);
        mbar_wait(smem_address(&bars[s]), static_cast<unsigned>((i / STAGES) & 1));
        bulk_store(dst + chunk(i) * CHUNK, base + s * CHUNK, size(chunk(i)));
        if (i >= 1) {
            bulk_wait_read<1>();  // the previous chunk's store has read its buffer
            load(i - 1 + STAGES);
        }
    }
    bulk_wait_all();  // the stores have read shared memory before the block (and its buffers) ends
}

// The grid-stride copy (designs.cuh's, 16 bytes, ITEMS in flight, hint H) under programmatic dependent launch.
template <int ITEMS, Hint H>
__global__ void pdl_grid_stride_kernel(int4* __restrict__ dst, const int4* __restrict__ src, size_t words) {
    // Let the next launch's blocks be scheduled as soon as this grid's blocks have all started...
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
    // ...and read nothing before the previous launch has finished and its writes are visible.
    asm volatile("griddepcontrol.wait;" ::: "memory");
    const size_t threads = size_t(gridDim.x) * blockDim.x;
    const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const size_t whole = words / (ITEMS * threads) * (ITEMS * threads);
    for (size_t base = t; base < whole; base += ITEMS * threads) {
        int4 v[ITEMS];
#pragma unroll
        for (int i = 0; i < ITEMS; ++i) v[i] = load16<H>(src + base + i * threads);
#pragma unroll
        for (int i = 0; i < ITEMS; ++i) store16<H>(dst + base + i * threads, v[i]);
    }
    for (size_t w = whole + t; w < words; w += threads) store16<H>(dst + w, load16<H>(src + w));
}

}  // namespace copystudy
