// CUB's device_reduce, with the other device-wide algorithms: device_algorithms.cuh.
#pragma once
#include <cub/device/device_algorithms.cuh>
