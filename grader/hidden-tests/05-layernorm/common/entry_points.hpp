// The lesson 05 entry points, exactly as the exercise files document them at their top. The judge calls them through
// WB_CALL (remote/call.hpp); the worker, which links one exercise's file, finds them through WB05_ENTRY_POINTS.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

void launch_layernorm(const float* input, const float* weight, const float* bias, float* output, int M, int N,
                      float eps, cudaStream_t stream);

void launch_layernorm_welford(const float* input, const float* weight, const float* bias, float* output, float* mean,
                              float* rstd, int M, int N, float eps, cudaStream_t stream);

void launch_layernorm_bf16(const __nv_bfloat16* input, const __nv_bfloat16* weight, const __nv_bfloat16* bias,
                           __nv_bfloat16* output, int M, int N, float eps, cudaStream_t stream);
void launch_layernorm_fp16(const __half* input, const __half* weight, const __half* bias, __half* output, int M, int N,
                           float eps, cudaStream_t stream);

void launch_fused_add_layernorm(const __nv_bfloat16* input, __nv_bfloat16* residual, const __nv_bfloat16* weight,
                                const __nv_bfloat16* bias, __nv_bfloat16* output, int M, int N, float eps,
                                cudaStream_t stream);

void launch_layernorm_fast(const __nv_bfloat16* input, const __nv_bfloat16* weight, const __nv_bfloat16* bias,
                           __nv_bfloat16* output, int M, int N, float eps, cudaStream_t stream);

void launch_layernorm_bughunt(const float* input, const float* weight, const float* bias, float* output, int M, int N,
                              float eps, cudaStream_t stream);

// Every entry point of the lesson, once: X(name) for each (worker_entries.cpp builds the worker's table from it).
#define WB05_ENTRY_POINTS(X)                                                                                   \
  X(launch_layernorm) X(launch_layernorm_welford) X(launch_layernorm_bf16) X(launch_layernorm_fp16)            \
  X(launch_fused_add_layernorm) X(launch_layernorm_fast) X(launch_layernorm_bughunt)
