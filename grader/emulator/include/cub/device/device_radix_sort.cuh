// CUB's device_radix_sort, with the other device-wide algorithms: device_algorithms.cuh.
#pragma once
#include <cub/device/device_algorithms.cuh>
