// CUDA's device_launch_parameters.h (threadIdx, blockIdx, …), which older samples include: part of cuda_runtime.h here.
#pragma once
#include <cuda_runtime.h>
