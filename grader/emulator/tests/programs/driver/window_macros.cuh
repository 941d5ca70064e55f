// Shared-memory windows declared through a macro in a header, as stencil codes do. The bug planted in
// header_shared_overrun.cu indexes the window one element past its size; the report must name this header's line.
#pragma once

#define DECLARE_WINDOW(name, radius, threads) __shared__ float name[(threads) + 2 * (radius)]

template <int Radius, int Threads>
__global__ void box_filter(const float* in, float* out, int n, int extra) {
  DECLARE_WINDOW(window, Radius, Threads);
  const int i = blockIdx.x * Threads + threadIdx.x;
  window[threadIdx.x + Radius] = i < n ? in[i] : 0.f;
  if (threadIdx.x < Radius) {
    const int left = i - Radius, right = i + Threads;
    window[threadIdx.x] = left >= 0 ? in[left] : 0.f;
    // The right halo starts at Threads + Radius; `extra` = 1 (the bug) reaches one element past the window's end.
    window[threadIdx.x + Threads + Radius + extra] = right < n ? in[right] : 0.f;
  }
  __syncthreads();
  if (i < n) {
    float s = 0.f;
    for (int k = -Radius; k <= Radius; ++k) s += window[threadIdx.x + Radius + k];
    out[i] = s / (2 * Radius + 1);
  }
}
