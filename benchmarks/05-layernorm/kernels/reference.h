// Entry points of lesson 05's reference LayerNorm kernels (layernorm.cu in this folder), for the benchmark and its
// CPU-side check. Host code. Launch shapes are lesson 04's (benchmarks/04-rmsnorm/kernels/launch_shape.h): the same
// row-in-registers layout, so the same rule and the same tuning sweep apply.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "launch_rule.h"

// LayerNorm of M contiguous rows of N elements, statistics in fp32 (mean, then the mean of squared distances from
// it: the two-pass statistics of the lesson, both passes over registers; each mean as a sum times 1/N, the
// reciprocal rounded to fp32 once on the host, within an ulp of sum / N):
//   fp32:         y = (x - mean) * rstd * w + b
//   bf16 / fp16:  y = T( (float(x) - mean) * rstd * float(w) + float(b) )   (one rounding, at the store)
// Runs on `stream`, returns without waiting.
void ref_layernorm_fp32(const float* input, const float* weight, const float* bias, float* output, int M, int N,
                        float eps, cudaStream_t stream);
void ref_layernorm_bf16(const __nv_bfloat16* input, const __nv_bfloat16* weight, const __nv_bfloat16* bias,
                        __nv_bfloat16* output, int M, int N, float eps, cudaStream_t stream);
void ref_layernorm_fp16(const __half* input, const __half* weight, const __half* bias, __half* output, int M, int N,
                        float eps, cudaStream_t stream);

// residual <- bf16(input + residual); output <- LayerNorm(residual) as above (the `fused_add_layernorm` contract).
void ref_fused_add_layernorm_bf16(const __nv_bfloat16* input, __nv_bfloat16* residual, const __nv_bfloat16* weight,
                                  const __nv_bfloat16* bias, __nv_bfloat16* output, int M, int N, float eps,
                                  cudaStream_t stream);

// The same with a given launch shape (the tuning sweep); false, and nothing launched, when the kernels have no
// instance of that shape (options other than kOptCap and kOptStream; a residual, the fused add, in fp32 or fp16) or
// its registers cannot hold a row of N. A null `residual`: the plain norm; otherwise the fused add (bf16 only).
bool ref_layernorm_shape_fp32(const rmsref::LaunchShape& shape, const float* input, float* residual,
                              const float* weight, const float* bias, float* output, int M, int N, float eps,
                              cudaStream_t stream);
bool ref_layernorm_shape_bf16(const rmsref::LaunchShape& shape, const __nv_bfloat16* input, __nv_bfloat16* residual,
                              const __nv_bfloat16* weight, const __nv_bfloat16* bias, __nv_bfloat16* output, int M,
                              int N, float eps, cudaStream_t stream);
bool ref_layernorm_shape_fp16(const rmsref::LaunchShape& shape, const __half* input, __half* residual,
                              const __half* weight, const __half* bias, __half* output, int M, int N, float eps,
                              cudaStream_t stream);
