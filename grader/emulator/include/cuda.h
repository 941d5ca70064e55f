// Minimal driver-API header: version numbers only. The emulator implements the runtime API (cuda_runtime.h).
#pragma once
#define CUDA_VERSION 12080
#include <cuda_runtime_api.h>
