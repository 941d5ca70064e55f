// Known wrong answer (hostile input): attacks the memory it shares with the judge: truncates the shared arena to
// nothing (so that the judge's next read would fault) and fills every byte it maps with garbage. The arena is sealed
// against shrinking, and the judge compares the outputs with values it keeps in its own memory and checks the inputs
// against its private copies: the test fails, the judge does not.
#include <cuda_runtime.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>

void launch_rmsnorm(const float*, const float*, float*, int, int, float, cudaStream_t) {
    struct stat st {};
    if (fstat(3, &st) == 0 && st.st_size > 0) {
        void* p = mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ | PROT_WRITE, MAP_SHARED, 3, 0);
        if (p != MAP_FAILED) std::memset(p, 0x42, static_cast<size_t>(st.st_size));
    }
    ftruncate(3, 0);
}
