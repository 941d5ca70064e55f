// Not a program: it reads its input through a 3D texture fetch, which the emulator does not provide (it has 1D and 2D
// texture objects). emu-nvcc must refuse it at the fetch (line 11) with one sentence naming what is not emulated, not
// with g++'s page of "has not been declared" errors; with -DUSE_GRAPH it captures a CUDA graph instead (refused at
// line 21, where cudaGraph_t is first named).
#include <cuda_runtime.h>

__global__ void scale(float* out, int n, float factor,
#ifndef USE_GRAPH
                      cudaTextureObject_t in) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = factor * tex3D<float>(in, i, 0, 0);
#else
                      const float* in) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = factor * in[i];
#endif
}

#ifdef USE_GRAPH
void run(cudaStream_t s, float* out, const float* in, int n) {
  cudaGraph_t graph;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  scale<<<(n + 127) / 128, 128, 0, s>>>(out, n, 2.0f, in);
  cudaStreamEndCapture(s, &graph);
}
#endif

int main() { return 0; }
