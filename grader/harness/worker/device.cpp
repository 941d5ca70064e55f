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

std::string time_runs(const std::function<void()>& launch, unsigned repeats, std::size_t copy_bytes,
                      std::vector<float>* kernel_ms, std::vector<float>* copy_ms) {
    cudaEvent_t start = nullptr, stop = nullptr;
    void* from = nullptr;
    void* to = nullptr;
    std::string error = text(cudaEventCreate(&start));
    if (error.empty()) error = text(cudaEventCreate(&stop));
    if (error.empty() && copy_bytes) error = text(cudaMalloc(&from, copy_bytes));
    if (error.empty() && copy_bytes) error = text(cudaMalloc(&to, copy_bytes));
    if (error.empty() && copy_bytes) error = text(cudaMemset(from, 0, copy_bytes));
    // One run of each, untimed, so that neither pays for first use; then kernel and copy alternate, so that a clock
    // change or another process on the GPU affects both alike.
    if (error.empty()) {
        launch();
        if (copy_bytes) (void)cudaMemcpyAsync(to, from, copy_bytes, cudaMemcpyDeviceToDevice);
        error = text(cudaDeviceSynchronize());
    }
    for (unsigned r = 0; r < repeats && error.empty(); ++r) {
        float ms = 0;
        cudaEventRecord(start);
        launch();
        cudaEventRecord(stop);
        error = text(cudaEventSynchronize(stop));
        if (error.empty()) error = text(cudaEventElapsedTime(&ms, start, stop));
        if (!error.empty()) break;
        kernel_ms->push_back(ms);
        if (!copy_bytes) continue;
        cudaEventRecord(start);
        (void)cudaMemcpyAsync(to, from, copy_bytes, cudaMemcpyDeviceToDevice);
        cudaEventRecord(stop);
        error = text(cudaEventSynchronize(stop));
        if (error.empty()) error = text(cudaEventElapsedTime(&ms, start, stop));
        if (error.empty()) copy_ms->push_back(ms);
    }
    if (error.empty()) error = text(cudaGetLastError());
    if (from) cudaFree(from);
    if (to) cudaFree(to);
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
    return error;
}

void at_finish(std::string* run_error, std::vector<std::string>* diagnostics) {
    cudaError_t e = cudaDeviceSynchronize();
    if (e == cudaSuccess) e = cudaGetLastError();
    *run_error = text(e);
    *diagnostics = take();
}

}  // namespace wb::worker
