// The lesson 04 entry points, exactly as docs/architecture.md specifies them; each harness links one exercise's file.
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
