// Known wrong answer (fault): overruns a small host buffer and frees it twice, corrupting the heap; glibc aborts the
// process ("double free detected" / "invalid next size"), or the heap is left broken for whatever runs next.
#include <cuda_runtime.h>
#include <cstdlib>
#include <cstring>

void launch_rmsnorm(const float*, const float*, float*, int, int, float, cudaStream_t) {
    char* volatile scratch = static_cast<char*>(std::malloc(24));
    std::memset(scratch, 0x41, 64);  // past the end of the 24-byte block, over the next chunk's header
    std::free(scratch);
    std::free(scratch);
}
