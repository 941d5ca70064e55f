// Second translation unit of device_reach_forms: the definitions behind the `extern __device__` declarations of the
// first (separate compilation, nvcc -rdc / -dc). A kernel of the other unit reads and writes them.
#include "device_reach_forms.cuh"

__device__ float g_bias[4] = {0.5f, 1.5f, 2.5f, 3.5f};
__device__ int g_extern_hits;
