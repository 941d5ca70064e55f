// The messages between a judge (trusted: hidden tests, references, verdict) and its worker (untrusted: the student's
// compiled file and the dispatcher of grader/harness/worker). Both sides link this file; nothing else crosses.
//
// Transport: a stream socket pair, each message one frame `u32 length | payload`. Device buffers are not sent: they
// live in one shared-memory arena (a sealed memfd) that the judge owns and the worker maps; a call names each
// buffer by id, offset and size inside it. The judge parses every reply as hostile input: bounded frames, bounded
// counts, and any malformed byte makes the whole reply a protocol error (the test fails, the judge does not).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace wb::wire {

// Largest frame either side accepts (a reply carries at most a few emulator diagnostics).
constexpr std::size_t kMaxFrame = 4u << 20;
constexpr std::uint32_t kMaxItems = 4096;

enum class Kind : std::uint8_t { call = 1, finish = 2, reply = 3 };

// One argument of an entry point. Pointers name a buffer of the arena; null stays null.
enum class ArgTag : std::uint8_t { null_pointer = 0, pointer = 1, i32 = 2, i64 = 3, f32 = 4, f64 = 5, stream = 6 };

struct Arg {
    ArgTag tag = ArgTag::null_pointer;
    std::uint64_t buffer = 0;  // pointer: buffer id
    std::uint64_t offset = 0;  // pointer: byte offset from the buffer's start
    std::uint64_t bits = 0;    // scalars: the value's bytes (little-endian, zero-extended)
};

struct BufferRef {
    std::uint64_t id = 0;
    std::uint64_t arena_offset = 0;  // where its bytes lie in the arena
    std::uint64_t size = 0;
};

// Judge -> worker. `call`: copy every listed buffer to the device, run `entry`, synchronize, copy every buffer back.
// `finish`: the test is over; synchronize, report what is still pending, exit.
// A timed call (timed_repeats > 0, gpu): after that first, checked run the entry runs `timed_repeats` more times, each
// timed with CUDA events, and so does a device-to-device copy of `copy_bytes` (the roofline, measured in the same
// process); the buffers are copied back after the last run, so the outputs checked are the last run's.
struct Request {
    Kind kind = Kind::call;
    std::string entry;
    std::uint64_t arena_size = 0;
    std::vector<BufferRef> buffers;
    std::vector<Arg> args;
    std::uint32_t timed_repeats = 0;
    std::uint64_t copy_bytes = 0;
};

// Worker -> judge, one per request. Empty strings mean "nothing to report".
struct Reply {
    bool defined = true;                   // the submission defines the entry point with the declared signature
    std::string exception;                 // the launcher threw: its message
    std::string launch_error;              // cudaGetLastError() after the launcher returned
    std::string run_error;                 // cudaDeviceSynchronize() after it
    std::string copy_error;                // copying buffers to or from the device failed
    std::vector<std::string> diagnostics;  // the emulator's reports (races, bounds, barriers, ...)
    // A timed call: milliseconds of each timed run of the entry and of the copy, or why there are none. Measured by the
    // student's own process, so a judge reports them as advice and never scores them.
    std::vector<float> kernel_ms, copy_ms;
    std::string timing_error;
};

std::string encode(const Request& r);
std::string encode(const Reply& r);
// nullopt (with *why) on any malformed payload.
std::optional<Request> decode_request(const std::string& payload, std::string* why);
std::optional<Reply> decode_reply(const std::string& payload, std::string* why);

// Frame I/O. send_frame: false when the peer is gone. recv_frame waits at most until `deadline_ms` (milliseconds of
// CLOCK_MONOTONIC; negative: no limit) for the whole frame, so a peer that sends half a frame cannot hang the reader;
// nullopt on end of stream, an oversized frame, an error or the deadline (*timed_out), with *why.
bool send_frame(int fd, const std::string& payload);
std::optional<std::string> recv_frame(int fd, long long deadline_ms, std::string* why, bool* timed_out = nullptr);
long long now_ms();

}  // namespace wb::wire
