// What the worker does with the device, one implementation per backend (device.cpp, compiled with WORKBOOK_EMU for
// the emulator and against the CUDA toolkit for gpu).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace wb::worker {

// Every function returns an empty string on success, else the CUDA error as "cudaErrorX (text)".
std::string device_alloc(std::size_t bytes, void** out);
void device_free(void* p);
std::string copy_to_device(void* dst, const void* src, std::size_t bytes);
std::string copy_to_host(void* dst, const void* src, std::size_t bytes);

// Around one call of an entry point: before_call clears stale errors and diagnostics (and, on a GPU, fills shared
// memory with NaN); after_call collects the launch error, the error of the synchronisation and the diagnostics.
void before_call();
void after_call(std::string* launch_error, std::string* run_error, std::vector<std::string>* diagnostics);

// A timed call (wire::Request::timed_repeats): `launch` and a device-to-device copy of `copy_bytes`, each run `repeats`
// times between CUDA events; milliseconds per run. Empty string on success, else what went wrong.
std::string time_runs(const std::function<void()>& launch, unsigned repeats, std::size_t copy_bytes,
                      std::vector<float>* kernel_ms, std::vector<float>* copy_ms);

// At the end of a test: what is still pending.
void at_finish(std::string* run_error, std::vector<std::string>* diagnostics);

}  // namespace wb::worker
