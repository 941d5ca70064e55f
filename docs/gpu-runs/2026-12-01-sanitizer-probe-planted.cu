// Planted bugs for a compute-sanitizer probe: oob (global write past the end), race (shared memory), clean.
#include <cstdio>
#include <cstring>
__global__ void oob(float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) out[i] = 1.0f;  // one past the end
}
__global__ void race(float* out) {
  __shared__ float s[64];
  s[threadIdx.x] = threadIdx.x;
  float v = s[(threadIdx.x + 1) % 64];  // no barrier
  out[threadIdx.x] = v;
}
int main(int argc, char** argv) {
  const char* what = argc > 1 ? argv[1] : "clean";
  float* d = nullptr;
  cudaMalloc(&d, 64 * sizeof(float));
  if (!std::strcmp(what, "oob")) oob<<<1, 128>>>(d, 64 - 1 + 0 * 1 + 0);
  else if (!std::strcmp(what, "race")) race<<<1, 64>>>(d);
  else oob<<<1, 32>>>(d, 31);
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("%s: %s\n", what, cudaGetErrorString(e));
  return 0;
}
