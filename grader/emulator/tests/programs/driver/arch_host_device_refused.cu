// Not a program: emu-nvcc must refuse it with a clear message. A __host__ __device__ function whose body depends on
// __CUDA_ARCH__ has two bodies under nvcc (one per side); the emulator compiles one for both and will not choose.
__host__ __device__ inline int lane_or_zero() {
#ifdef __CUDA_ARCH__
  return threadIdx.x % 32;
#else
  return 0;
#endif
}

__global__ void k(int* out) { out[threadIdx.x] = lane_or_zero(); }

int main() { return lane_or_zero(); }
