// Not a program: emu-nvcc must refuse the launch through `this->kernel` in refused_in_header.cuh:9,
// naming that file and line, instead of rewriting it wrongly.
#include "refused_in_header.cuh"

int main() { return 0; }
