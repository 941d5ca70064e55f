// The large device-to-device copies every lesson's benchmark chooses its roofline from, and the choice: each copies
// dst <- src, `bytes` a multiple of 16 and both 16-byte aligned. Host interface; sweep.h times them over 2 GiB.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

#include "report.h"

namespace bench {

// A grid-stride kernel of 16-byte loads and stores, at most 132 x 16 blocks of 256 (also the tables' per-shape "copy
// of the same bytes").
void copy_kernel(void* dst, const void* src, size_t bytes, cudaStream_t stream);

// One block a 2 KiB row, `threads` (128 or 64) threads of 2048 / 16 / threads words each, every load issued before
// the first store, streaming (__ldcs/__stcs): run 15's copy study found this structure, the norm's own, streams
// faster than any grid-stride copy (4.27 against 3.97 TB/s over 2 GiB). A short last row is copied as far as it goes.
// cudaMemcpyAsync is not among the copies: sweep.cu says why.
void row_copy(void* dst, const void* src, size_t bytes, int threads, cudaStream_t stream);

// How a copy design of row_copy_rows is launched: plainly; plainly, its kernel starting with the programmatic
// dependent launch pair (griddepcontrol.launch_dependents, then .wait; no-ops without the attribute), to measure what
// the pair costs a plain launch; or with programmatic stream serialization (PDL: the next launch's blocks are
// scheduled while this one drains, each waiting before its first load), the labelled launch mode of a kernel's
// "+pdl" rows, so that they are measured against a copy launched the same way.
enum class CopyLaunch { plain, wait, pdl };

// The tensors a kernel reads and rewrites, for a copy of the same bytes: `count` (1 or 2) sources copied to as many
// destinations (a destination may be its own source: the fused add rewrites its residual in place).
struct CopyTensors {
    void* dst[2] = {nullptr, nullptr};
    const void* src[2] = {nullptr, nullptr};
    int count = 1;
};

// A copy of `bytes` of each tensor, one block a row of `row_bytes` (the tensors' rows interleaved, block b copying
// row b / count of tensor b % count, as a fused kernel reads both at once), `words` 16-byte words a thread (threads:
// the row's words over `words`, rounded up to a warp), every load before the first store, streaming; a short last
// row is copied as far as it goes. The tables' "best copy of the same bytes" is the fastest of these (at a row of
// 2 KiB, the roofline's structure, and at the kernel's own row length) and copy_kernel. False, and nothing
// launched, when a row needs more than 1024 threads or `bytes` or `row_bytes` is not a multiple of 16.
bool row_copy_rows(const CopyTensors& tensors, size_t bytes, size_t row_bytes, int words, CopyLaunch how,
                   cudaStream_t stream);

// How many of the `bytes` / 16 16-byte words differ between a and b (synchronous): a copy is checked before it is
// timed, since a copy that skipped words would be a fast, wrong roofline.
size_t count_differences(const void* a, const void* b, size_t bytes);

// The roofline: the fastest of `copies` (an empty name and 0 TB/s if there are none), so that no copy of the run is
// faster than what its kernels are measured against.
CopyFigure fastest_copy(const std::vector<CopyFigure>& copies);

}  // namespace bench
