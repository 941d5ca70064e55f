// Not a program (see compile_error_in_header.cu): g++'s error must name this header and line.
#pragma once

__global__ void scale(float* p) {
  p[threadIdx.x] *= undeclared_factor;  // line 5
}
