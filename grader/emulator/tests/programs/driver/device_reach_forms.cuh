// Shared by the two units of device_reach_forms: device variables declared here, defined in device_reach_extern.cu.
#pragma once
extern __device__ float g_bias[4];
extern __device__ int g_extern_hits;
