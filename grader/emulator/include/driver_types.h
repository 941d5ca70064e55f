// CUDA's driver_types.h, which programs include directly: its declarations are part of cuda_runtime.h here.
#pragma once
#include <cuda_runtime.h>
