// Not a program (see compile_errors_refused.cu): a compiler error and a launch the rewriter cannot name, both in an
// included header, must be reported at this file's lines.
#pragma once

__global__ void fill(float* p, float v) { p[threadIdx.x] = v; }

struct Plan {
  void (*kernel)(float*, float) = fill;
  void broken_launch(float* p) { this->kernel<<<1, 32>>>(p, 1.f); }  // line 9: the rewriter cannot name `this->`
};
