// A kernel's bandwidth on a GPU, measured beside a test's checks. After a WB_TIMED_CALL the worker has timed the
// entry point and a device-to-device copy of the same traffic; this turns the medians into effective bandwidth (the
// bytes the operation must move — each input read once, each output written once — over the time) and its fraction
// of the copy, and records it in the result file. The worker measured it, so it is advice: it never decides a test.
#pragma once

#include <cstdint>
#include <string>

#include "remote/client.hpp"

namespace wb::testkit {

// What a timed call asks of the worker for an operation that moves `bytes_moved`: `repeats` timed runs, and a copy
// of half the bytes (a copy reads and writes each byte, so it moves the same traffic).
remote::Timing bandwidth_timing(std::uint64_t bytes_moved, std::uint32_t repeats = 30);

struct Bandwidth {
    bool measured = false;
    std::string why_not;                // when not measured: one sentence
    double kernel_ms = 0, copy_ms = 0;  // medians
    double kernel_tb_per_s = 0, copy_tb_per_s = 0, fraction_of_copy = 0;
};

// The last call's times (remote::last_call()), for an operation that moves `bytes_moved`.
Bandwidth bandwidth_of_last_call(std::uint64_t bytes_moved);

// Writes it to the result file (state::record_measurement): {"kind": "bandwidth", "shape", "dtype", "bytes", …}.
void record_bandwidth(const std::string& shape, const std::string& dtype, std::uint64_t bytes_moved,
                      const Bandwidth& b);

}  // namespace wb::testkit
