// Not a program: emu-nvcc must fail with g++'s error at compile_error_in_header.cuh:5 (not at a line of some
// rewritten file).
#include "compile_error_in_header.cuh"

int main() {
  scale<<<1, 32>>>(nullptr);
  return 0;
}
