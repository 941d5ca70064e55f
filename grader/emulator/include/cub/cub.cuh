// CUB for emulator builds: the block- and warp-wide reductions (cub::BlockReduce, cub::WarpReduce) and the
// reduction functors. The real CUB is inline PTX; these shims run the same algorithms on the emulator's built-ins.
#pragma once

#include <cuda_runtime.h>

#include <cub/block/block_reduce.cuh>
#include <cub/thread/thread_operators.cuh>
#include <cub/util_ptx.cuh>
#include <cub/util_type.cuh>
#include <cub/warp/warp_reduce.cuh>
