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

// How many of the `bytes` / 16 16-byte words differ between a and b (synchronous): a copy is checked before it is
// timed, since a copy that skipped words would be a fast, wrong roofline.
size_t count_differences(const void* a, const void* b, size_t bytes);

// The roofline: the fastest of `copies` (an empty name and 0 TB/s if there are none), so that no copy of the run is
// faster than what its kernels are measured against.
CopyFigure fastest_copy(const std::vector<CopyFigure>& copies);

}  // namespace bench
