// Not a program: it uses cuFFT, a CUDA library the emulator does not provide. emu-nvcc must stop at the include
// with the compiler's line and one sentence naming the library.
#include <cufft.h>

int main() { return 0; }
