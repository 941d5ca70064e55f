// Not a program: it uses cuRAND, a CUDA library the emulator does not provide. emu-nvcc must stop at the include
// with the compiler's line and one sentence naming the library.
#include <curand.h>

int main() { return 0; }
