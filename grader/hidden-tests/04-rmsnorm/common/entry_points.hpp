// The lesson 04 entry points, exactly as docs/architecture.md specifies them. The judge calls them through WB_CALL
// (remote/call.hpp); the worker, which links one exercise's file, finds them through WB04_ENTRY_POINTS.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

void launch_rmsnorm(const float* input, const float* weight, float* output, int M, int N, float eps,
                    cudaStream_t stream);

void launch_block_sum(const float* input, float* totals, int M, int N, int block_size, cudaStream_t stream);

void launch_rmsnorm_bf16(const __nv_bfloat16* input, const __nv_bfloat16* weight, __nv_bfloat16* output, int M, int N,
                         float eps, cudaStream_t stream);
void launch_rmsnorm_fp16(const __half* input, const __half* weight, __half* output, int M, int N, float eps,
                         cudaStream_t stream);

void launch_rmsnorm_vec(const __nv_bfloat16* input, long long input_row_stride, const __nv_bfloat16* weight,
                        __nv_bfloat16* output, long long output_row_stride, int M, int N, float eps,
                        cudaStream_t stream);

void launch_fused_add_rmsnorm(const __nv_bfloat16* input, __nv_bfloat16* residual, const __nv_bfloat16* weight,
                              __nv_bfloat16* output, int M, int N, float eps, cudaStream_t stream);

void launch_rmsnorm_fast(const float* input, const float* weight, float* output, int M, int N, float eps,
                         cudaStream_t stream);

// Every entry point of the lesson, once: X(name) for each (worker_entries.cpp builds the worker's table from it).
#define WB04_ENTRY_POINTS(X)                                                                                    \
  X(launch_rmsnorm) X(launch_block_sum) X(launch_rmsnorm_bf16) X(launch_rmsnorm_fp16) X(launch_rmsnorm_vec)    \
  X(launch_fused_add_rmsnorm) X(launch_rmsnorm_fast)
