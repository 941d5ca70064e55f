// CUDA's cublas_v2.h: the handle-based cuBLAS API (emulator version in cublas_api.h).
#pragma once
#define CUBLAS_V2_H_
#include <cublas_api.h>
