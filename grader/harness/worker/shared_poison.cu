// Fills the shared memory of every multiprocessor with NaN before a student's kernel is launched (gpu backend only).
//
// Why: shared memory is not cleared between kernels. A kernel that reads shared memory it never wrote (a partial past
// the number of warps, say) sees whatever an earlier kernel left there, which can leave the result right: on the
// H200 the out-of-range partials read of block_reduce passed every test (docs/grading.md). After this fill such a read
// returns NaN, and the wrong sum shows in the output. The emulator needs none of this: it fills shared memory itself
// and reports reads past what a kernel declared and reads of bytes never written.
//
// The word 0x7FC07FC0 is a NaN read as one float and as two bf16 or two half values.
#include <cuda_runtime.h>

#include "shared_poison.hpp"

namespace {

constexpr unsigned kPoisonWord = 0x7FC07FC0u;

__global__ void fill_shared(unsigned words) {
    extern __shared__ unsigned smem[];
    // volatile: the stores are never read back by this kernel, and must not be removed as dead.
    volatile unsigned* s = smem;
    for (unsigned i = threadIdx.x; i < words; i += blockDim.x) s[i] = kPoisonWord;
}

}  // namespace

namespace wb::worker {

cudaError_t poison_shared_memory() {
    static int bytes = -1, blocks = 0;
    if (bytes < 0) {
        int dev = 0, optin = 0, sms = 0;
        cudaError_t e = cudaGetDevice(&dev);
        if (e == cudaSuccess) e = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
        if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        if (e == cudaSuccess) e = cudaFuncSetAttribute(fill_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, optin);
        // The whole unified L1/shared array as shared memory, so the fill reaches every byte a later block can get.
        if (e == cudaSuccess)
            e = cudaFuncSetAttribute(fill_shared, cudaFuncAttributePreferredSharedMemoryCarveout,
                                     cudaSharedmemCarveoutMaxShared);
        if (e != cudaSuccess) return e;
        bytes = optin;
        blocks = 2 * sms;  // one block fills a multiprocessor; two per SM in case the scheduler doubles up somewhere
    }
    fill_shared<<<blocks, 1024, bytes>>>(static_cast<unsigned>(bytes) / 4);
    cudaError_t e = cudaGetLastError();
    return e == cudaSuccess ? cudaDeviceSynchronize() : e;
}

}  // namespace wb::worker
