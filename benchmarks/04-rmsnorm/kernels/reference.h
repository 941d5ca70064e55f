// Entry points of the reference kernels in this folder (rmsnorm.cu, fused_add_rmsnorm.cu), for the benchmark and
// for anyone who links them. Host code.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "launch_shape.h"

// RMSNorm of M rows of N elements; row r of input at input + r * in_stride, of output at output + r * out_stride
// (strides in elements, >= N). The shape comes from rmsref::choose_shape. Runs on `stream`, returns without waiting.
void ref_rmsnorm_fp32(const float* input, long long in_stride, const float* weight, float* output, long long out_stride,
                      int M, int N, float eps, cudaStream_t stream);
void ref_rmsnorm_bf16(const __nv_bfloat16* input, long long in_stride, const __nv_bfloat16* weight,
                      __nv_bfloat16* output, long long out_stride, int M, int N, float eps, cudaStream_t stream);
void ref_rmsnorm_fp16(const __half* input, long long in_stride, const __half* weight, __half* output,
                      long long out_stride, int M, int N, float eps, cudaStream_t stream);

// residual <- input + residual (rounded to the element type); output <- RMSNorm(residual) * weight. Contiguous rows.
void ref_fused_add_rmsnorm_fp32(const float* input, float* residual, const float* weight, float* output, int M, int N,
                                float eps, cudaStream_t stream);
void ref_fused_add_rmsnorm_bf16(const __nv_bfloat16* input, __nv_bfloat16* residual, const __nv_bfloat16* weight,
                                __nv_bfloat16* output, int M, int N, float eps, cudaStream_t stream);

// The same with a given launch shape (the benchmark's tuning sweep); false, and nothing launched, when the kernels
// have no instance of that shape or its registers cannot hold a row of N.
bool ref_rmsnorm_fp32_shape(const rmsref::LaunchShape& shape, const float* input, long long in_stride,
                            const float* weight, float* output, long long out_stride, int M, int N, float eps,
                            cudaStream_t stream);
bool ref_rmsnorm_bf16_shape(const rmsref::LaunchShape& shape, const __nv_bfloat16* input, long long in_stride,
                            const __nv_bfloat16* weight, __nv_bfloat16* output, long long out_stride, int M, int N,
                            float eps, cudaStream_t stream);
bool ref_rmsnorm_fp16_shape(const rmsref::LaunchShape& shape, const __half* input, long long in_stride,
                            const __half* weight, __half* output, long long out_stride, int M, int N, float eps,
                            cudaStream_t stream);
bool ref_fused_add_rmsnorm_fp32_shape(const rmsref::LaunchShape& shape, const float* input, float* residual,
                                      const float* weight, float* output, int M, int N, float eps, cudaStream_t stream);
bool ref_fused_add_rmsnorm_bf16_shape(const rmsref::LaunchShape& shape, const __nv_bfloat16* input,
                                      __nv_bfloat16* residual, const __nv_bfloat16* weight, __nv_bfloat16* output,
                                      int M, int N, float eps, cudaStream_t stream);
