// gpu backend: fill every multiprocessor's shared memory with NaN, so that a kernel reading shared memory it never
// wrote gets NaN rather than an earlier kernel's leftovers (see shared_poison.cu). Compiled by nvcc, linked only into
// gpu harnesses.
#pragma once

#include <cuda_runtime.h>

namespace wb::worker {

cudaError_t poison_shared_memory();

}  // namespace wb::worker
