// The judge's side of a remote launch: device buffers that live in shared memory, the worker that runs the student's
// code on them, and the calls. Test code uses DeviceBuffer-like Buffers and WB_CALL (call.hpp); the verdict stays in
// the judge, which the worker cannot reach: it gets inputs in the arena and hands outputs back there, nothing else.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sandbox.hpp"
#include "wire.hpp"

namespace wb::remote {

struct Config {
    std::string worker;           // the worker executable; empty: this judge runs no student code (listing)
    std::string backend = "emu";  // "emu" or "gpu": which device the worker drives
    sandbox::Options sandbox;
    double call_timeout_s = 20;      // one call: copy in, launch, synchronize, copy out
    std::uint64_t rss_limit_mb = 0;  // resident memory of the worker, polled while it runs; 0: none
    std::string sanitize_tool;       // set when sandbox.wrapper is compute-sanitizer: its findings go into the report
};
void configure(Config config);
const Config& config();

// Host memory in the shared arena that stands for one cudaMalloc of `size` bytes (256-byte aligned, like
// cudaMalloc); the worker mirrors it on the device around every call.
class Buffer {
 public:
    explicit Buffer(std::size_t size);
    ~Buffer();
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    unsigned char* data() const { return data_; }
    std::size_t size() const { return size_; }

 private:
    std::uint64_t id_;
    std::size_t offset_, size_;
    unsigned char* data_;
};

// What one call came to. `failure` is set when the worker did not answer (crashed, hung, exited, broke the
// protocol): one sentence, then the last lines of its output.
struct CallResult {
    bool answered = false;
    wire::Reply reply;
    std::string failure;
    bool timed_out = false;
};
const CallResult& last_call();

// Encodes one argument; pointers must point into a live Buffer (or be null).
wire::Arg pointer_arg(const void* p);
wire::Arg scalar_arg(wire::ArgTag tag, std::uint64_t bits);

// A timed call (wire::Request): `repeats` timed runs after the checked one, and a copy of `copy_bytes` timed as often.
struct Timing {
    std::uint32_t repeats = 0;
    std::uint64_t copy_bytes = 0;
};

// Runs `entry` in the worker (started on first use) and records the result in last_call().
void call_entry(const std::string& entry, std::vector<wire::Arg> args, const Timing& timing = {});

// After the test: asks the worker to finish (pending errors, emulator diagnostics) and waits for it to end, killing
// it at the deadline. Problems are returned as failure messages. Safe to call when no worker was started.
std::vector<std::string> finish();

// For the result file: the layers that confined the worker, how it ended, the tail of what it printed, and under
// compute-sanitizer its findings ("sanitizer", see sanitizer_output.hpp).
nlohmann::json worker_report();
bool worker_timed_out();

}  // namespace wb::remote
