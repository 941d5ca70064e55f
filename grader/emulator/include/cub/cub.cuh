// CUB for emulator builds: the block- and warp-wide reductions (cub::BlockReduce, cub::WarpReduce), scans
// (cub::BlockScan, cub::WarpScan), tile loads, stores and exchanges (cub::BlockLoad, cub::BlockStore,
// cub::BlockExchange), block radix sorts (cub::BlockRadixSort), the functors, and the device-wide algorithms
// (cub::DeviceReduce, DeviceScan, DeviceRadixSort, DeviceSegmentedReduce, DeviceSelect, DeviceRunLengthEncode,
// DeviceHistogram::HistogramEven: on the host, between copies). The real CUB is inline PTX; these shims run the same
// algorithms on the emulator's built-ins.
#pragma once

#include <cuda_runtime.h>

#include <cub/block/block_exchange.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>
#include <cub/device/device_algorithms.cuh>
#include <cub/thread/thread_operators.cuh>
#include <cub/util_ptx.cuh>
#include <cub/util_type.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cub/warp/warp_scan.cuh>
