// Not a program (see compile_errors_refused.cu): a compiler error and a launch the rewriter cannot name, both in an
// included header, must be reported at this file's lines.
#pragma once

__global__ void fill(float* p, float v) { p[threadIdx.x] = v; }

inline void broken_launch(float* p) {
  void (*table[1])(float*, float) = {fill};
  table[0]<<<1, 32>>>(p, 1.f);  // line 9: the rewriter cannot tell the kernel here
}
