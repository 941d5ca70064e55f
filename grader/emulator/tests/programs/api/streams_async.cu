// Overlapping copies and kernels the way the CUDA samples teach it: pinned host buffers, the work split into chunks
// over several non-blocking streams (async copy in, kernel, async copy out), an event per stream timing it, a host
// callback that counts finished chunks, stream-ordered allocation, and memsets in stream order; memory pools as the
// samples' streamOrderedAllocation uses them (the default pool's release threshold, the bytes in use) and a pool of
// the program's own for cudaMallocFromPoolAsync.
#include <vector>

#include "common.cuh"

__global__ void saxpy_chunk(const float* x, float* y, float a, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

// Programmatic dependent launch as CUDA 12 programs write it: the consumer, launched with programmatic stream
// serialization, lets its own successor start early and waits for the producer's grid before it reads.
__global__ void pdl_consumer(const float* x, float* y, int n) {
  cudaTriggerProgrammaticLaunchCompletion();
  cudaGridDependencySynchronize();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2.0f * x[i];
}

void CUDART_CB count_chunk(void* counter) { ++*static_cast<int*>(counter); }
void CUDART_CB check_status(cudaStream_t, cudaError_t status, void* flag) {
  *static_cast<int*>(flag) = status == cudaSuccess ? 1 : -1;
}

int main() {
  Tally t{"streams_async"};
  const int n = 1 << 14, streams_n = 4, chunk = n / streams_n;
  float *hx, *hy;
  CHECK_CUDA(cudaMallocHost(&hx, n * sizeof(float)));
  CHECK_CUDA(cudaHostAlloc(reinterpret_cast<void**>(&hy), n * sizeof(float), cudaHostAllocDefault));
  for (int i = 0; i < n; ++i) {
    hx[i] = static_cast<float>(i % 97);
    hy[i] = static_cast<float>(i % 13);
  }
  float *dx, *dy;
  CHECK_CUDA(cudaMalloc(&dx, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dy, n * sizeof(float)));
  std::vector<cudaStream_t> streams(streams_n);
  std::vector<cudaEvent_t> start(streams_n), stop(streams_n);
  for (int s = 0; s < streams_n; ++s) {
    CHECK_CUDA(cudaStreamCreateWithFlags(&streams[s], cudaStreamNonBlocking));
    CHECK_CUDA(cudaEventCreate(&start[s]));
    CHECK_CUDA(cudaEventCreate(&stop[s]));
  }
  int finished = 0;
  for (int s = 0; s < streams_n; ++s) {
    const int off = s * chunk;
    CHECK_CUDA(cudaEventRecord(start[s], streams[s]));
    CHECK_CUDA(cudaMemcpyAsync(dx + off, hx + off, chunk * sizeof(float), cudaMemcpyHostToDevice, streams[s]));
    CHECK_CUDA(cudaMemcpyAsync(dy + off, hy + off, chunk * sizeof(float), cudaMemcpyHostToDevice, streams[s]));
    saxpy_chunk<<<(chunk + 255) / 256, 256, 0, streams[s]>>>(dx + off, dy + off, 2.0f, chunk);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpyAsync(hy + off, dy + off, chunk * sizeof(float), cudaMemcpyDeviceToHost, streams[s]));
    CHECK_CUDA(cudaLaunchHostFunc(streams[s], count_chunk, &finished));
    CHECK_CUDA(cudaEventRecord(stop[s], streams[s]));
  }
  for (int s = 0; s < streams_n; ++s) {
    CHECK_CUDA(cudaStreamSynchronize(streams[s]));
    float ms = -1;
    CHECK_CUDA(cudaEventElapsedTime(&ms, start[s], stop[s]));
    t.equal("elapsed_nonnegative", s, ms >= 0.0f, 1);
  }
  t.equal("chunks", 0, finished, streams_n);
  for (int i = 0; i < n; ++i) t.close("saxpy", i, hy[i], 2.0 * (i % 97) + (i % 13), 0);

  // Stream-ordered scratch: allocate, clear, use, free, all on one stream; then a callback sees the stream's status.
  float* scratch = nullptr;
  CHECK_CUDA(cudaMallocAsync(&scratch, chunk * sizeof(float), streams[0]));
  CHECK_CUDA(cudaMemsetAsync(scratch, 0, chunk * sizeof(float), streams[0]));
  saxpy_chunk<<<(chunk + 255) / 256, 256, 0, streams[0]>>>(dx, scratch, 1.0f, chunk);
  CHECK_CUDA(cudaMemcpyAsync(hy, scratch, chunk * sizeof(float), cudaMemcpyDeviceToHost, streams[0]));
  CHECK_CUDA(cudaFreeAsync(scratch, streams[0]));
  int status_flag = 0;
  CHECK_CUDA(cudaStreamAddCallback(streams[0], check_status, &status_flag, 0));
  CHECK_CUDA(cudaStreamSynchronize(streams[0]));
  t.equal("callback_status", 0, status_flag, 1);
  for (int i = 0; i < chunk; ++i) t.close("scratch", i, hy[i], i % 97, 0);

  cudaMemPool_t pool, own;
  CHECK_CUDA(cudaDeviceGetDefaultMemPool(&pool, 0));
  unsigned long long threshold = ~0ull, read_back = 0, used = 0;
  CHECK_CUDA(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  CHECK_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &read_back));
  t.equal("pool_threshold", 0, read_back == threshold, 1);
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  CHECK_CUDA(cudaMemPoolCreate(&own, &props));
  CHECK_CUDA(cudaMallocFromPoolAsync(&scratch, chunk * sizeof(float), own, streams[1]));
  CHECK_CUDA(cudaMemPoolGetAttribute(own, cudaMemPoolAttrUsedMemCurrent, &used));
  t.equal("pool_used", 0, static_cast<long long>(used), chunk * static_cast<long long>(sizeof(float)));
  CHECK_CUDA(cudaMemsetAsync(scratch, 0, chunk * sizeof(float), streams[1]));
  CHECK_CUDA(cudaFreeAsync(scratch, streams[1]));
  CHECK_CUDA(cudaMemPoolGetAttribute(own, cudaMemPoolAttrUsedMemCurrent, &used));
  t.equal("pool_used_after_free", 0, static_cast<long long>(used), 0);
  CHECK_CUDA(cudaMemPoolDestroy(own));

  // Producer (a plain launch writes dy), then the consumer under programmatic stream serialization reads it.
  saxpy_chunk<<<(chunk + 255) / 256, 256, 0, streams[1]>>>(dx, dy, 1.0f, chunk);
  cudaLaunchAttribute pdl[1];
  pdl[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  pdl[0].val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3((chunk + 255) / 256);
  config.blockDim = dim3(256);
  config.stream = streams[1];
  config.attrs = pdl;
  config.numAttrs = 1;
  CHECK_CUDA(cudaLaunchKernelEx(&config, pdl_consumer, static_cast<const float*>(dy), dx, chunk));
  CHECK_CUDA(cudaMemcpyAsync(hy, dx, chunk * sizeof(float), cudaMemcpyDeviceToHost, streams[1]));
  CHECK_CUDA(cudaStreamSynchronize(streams[1]));
  for (int i = 0; i < chunk; ++i) t.close("pdl_consumer", i, hy[i], 2.0 * (2.0 * (i % 97) + (i % 13) + (i % 97)), 0);

  int least = 1, greatest = 1;
  CHECK_CUDA(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  t.equal("priority_order", 0, greatest <= least, 1);
  for (int s = 0; s < streams_n; ++s) {
    CHECK_CUDA(cudaEventDestroy(start[s]));
    CHECK_CUDA(cudaEventDestroy(stop[s]));
    CHECK_CUDA(cudaStreamDestroy(streams[s]));
  }
  // A destroyed stream is an invalid handle afterwards, as on a GPU.
  t.equal("destroyed_stream", 0, cudaStreamSynchronize(streams[0]), cudaErrorInvalidResourceHandle);
  cudaGetLastError();
  CHECK_CUDA(cudaFree(dx));
  CHECK_CUDA(cudaFree(dy));
  CHECK_CUDA(cudaFreeHost(hx));
  CHECK_CUDA(cudaFreeHost(hy));
  return t.finish();
}
