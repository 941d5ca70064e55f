// Known wrong answer (cheat): reads a file outside its submission while it is compiled, where no worker sandbox
// applies. `#include "../classmate/rmsnorm.cu"` pulls in the file of the classmate whose folder sits beside this one
// in a class, and a macro turns its code into an error, so that the compiler quotes the classmate's line in the
// report. The grader compiles a private copy of this file alone in a folder, with the class's folders hidden from
// the compiler: the include finds nothing.
#include <cuda_runtime.h>

#define float )
#include "../classmate/rmsnorm.cu"
#undef float

void launch_rmsnorm(const float*, const float*, float*, int, int, float, cudaStream_t) {}
