#include "device.hpp"

#include <cuda_runtime.h>
#ifdef WORKBOOK_EMU
#include <emu/api.h>
#else
#include "shared_poison.hpp"
#endif

namespace wb::worker {

namespace {

std::string text(cudaError_t e) {
  if (e == cudaSuccess) return {};
  return std::string(cudaGetErrorName(e)) + " (" + cudaGetErrorString(e) + ")";
}

std::vector<std::string> take() {
#ifdef WORKBOOK_EMU
  return emu::take_diagnostics();
#else
  return {};
#endif
}

}  // namespace

std::string device_alloc(std::size_t bytes, void** out) { return text(cudaMalloc(out, bytes == 0 ? 1 : bytes)); }

void device_free(void* p) { (void)cudaFree(p); }

std::string copy_to_device(void* dst, const void* src, std::size_t bytes) {
  return text(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
}

std::string copy_to_host(void* dst, const void* src, std::size_t bytes) {
  return text(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost));
}

void before_call() {
#ifndef WORKBOOK_EMU
  // Shared memory is poisoned like the outputs: leftovers of earlier kernels must not hide an unwritten read.
  (void)poison_shared_memory();
#endif
  (void)cudaGetLastError();  // no stale error from the copies may be blamed on the kernel
  (void)take();
}

void after_call(std::string* launch_error, std::string* run_error, std::vector<std::string>* diagnostics) {
  *launch_error = text(cudaGetLastError());
  if (launch_error->empty()) *run_error = text(cudaDeviceSynchronize());
  *diagnostics = take();
}

void at_finish(std::string* run_error, std::vector<std::string>* diagnostics) {
  cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess) e = cudaGetLastError();
  *run_error = text(e);
  *diagnostics = take();
}

}  // namespace wb::worker
