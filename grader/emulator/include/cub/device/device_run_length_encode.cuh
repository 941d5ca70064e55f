// CUB's device_run_length_encode, with the other device-wide algorithms: device_algorithms.cuh.
#pragma once
#include <cub/device/device_algorithms.cuh>
