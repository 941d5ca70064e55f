// A CUB header the emulator does not provide: with Debian's libcub-dev installed (Thrust's package brings it), the
// include finds the real CUB, GPU code. emu-nvcc must refuse it in one sentence at the include's line, not hand g++
// the real header's inline PTX.
#include <cub/block/block_histogram.cuh>

__global__ void k(int* out) { out[threadIdx.x] = 0; }
int main() { return 0; }
