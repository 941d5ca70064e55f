// The interface between the host program (multi_tu_main.cpp, plain C++) and the CUDA translation units.
#pragma once

// y = a * x + y on n elements of device memory.
void launch_saxpy(float a, const float* x, float* y, int n);
// Sum of n elements of device memory, into *result (device memory); two launches of a shared-memory reduction.
void launch_sum(const float* x, int n, float* result);
