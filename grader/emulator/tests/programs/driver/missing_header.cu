// Not a program: it includes a header that does not exist. emu-nvcc preprocesses a .cu file twice (device and host
// pass); the compiler's message must be printed once, not once per pass.
#include <no_such_header_for_emu.h>

int main() { return 0; }
