// Device memory and launches for the hidden tests, as the judge sees them: a DeviceBuffer is host memory in the
// shared arena that the worker mirrors on its device (a GPU or the emulator) around each call, and a launch is a
// remote call (remote/call.hpp). Every CUDA error, exception and emulator diagnostic of the call fails the test.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "remote/client.hpp"

#include "compare.hpp"
#include "rng.hpp"
#include "wb_test.hpp"

namespace wb::testkit {

// This test's random stream and its CaseInfo (title = the test's name, seed = the run's seed).
Rng test_rng();
CaseInfo case_info(std::string shape, std::string probe);

// Guard bytes around outputs: a multiple of 256, so the alignment of the data is set by the requested offset alone.
constexpr std::size_t kGuard = 256;

// One cudaMalloc: [before | payload | after]. data() points at the payload; before = guard + deliberate misalignment.
class DeviceBuffer {
 public:
    DeviceBuffer(std::size_t before, std::size_t payload, std::size_t after);
    ~DeviceBuffer();
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    void* data() const { return mem_->data() + before_; }
    std::size_t before() const { return before_; }
    std::size_t payload() const { return payload_; }
    std::size_t total() const { return before_ + payload_ + after_; }

    void fill(std::uint8_t byte);                     // the whole allocation
    void upload(const void* src, std::size_t bytes);  // to the payload
    std::vector<std::uint8_t> download() const;       // the whole allocation

 private:
    std::unique_ptr<wb::remote::Buffer> mem_;
    std::size_t before_, payload_, after_;
};

// Fails the test (and stops it) unless the worker ran the call: the entry point exists, did not throw, launched
// without a CUDA error, ran to completion, and (emulator) drew no diagnostic.
void check_after_launch(const std::string& entry);

template <class Launch>
void launch_and_check(const std::string& entry, Launch&& launch) {
    launch();  // a WB_CALL: runs in the worker, its outcome is remote::last_call()
    check_after_launch(entry);
}

// Records the comparison as one assertion: passed, or failed with the report (the test goes on to its other checks).
void expect_clean(const MismatchLog& log, const CaseInfo& info);
void expect_report(bool ok, const std::string& report);

// Every byte of the allocation outside the ranges a kernel may write must still hold the poison byte.
// writable(offset in the payload) tells whether a payload byte is an element of the buffer.
template <class Writable>
void expect_untouched(const CaseInfo& info, const std::string& name, const DeviceBuffer& buf,
                      const std::vector<std::uint8_t>& bytes, std::uint8_t poison, Writable&& writable,
                      std::size_t row_bytes_stride) {
    Untouched u;
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        const bool in_payload = i >= buf.before() && i < buf.before() + buf.payload();
        if (in_payload && writable(i - buf.before())) continue;
        if (bytes[i] == poison) continue;
        if (u.changed++ == 0) {
            u.first_offset = i;
            if (i < buf.before())
                u.first_where = std::to_string(buf.before() - i) + " byte(s) before its first element";
            else if (!in_payload)
                u.first_where =
                    std::to_string(i - buf.before() - buf.payload() + 1) + " byte(s) after its last element";
            else
                u.first_where = "row " + std::to_string((i - buf.before()) / row_bytes_stride) +
                                ", in the gap between the row's last element and the next row (byte " +
                                std::to_string((i - buf.before()) % row_bytes_stride) + " of the row)";
        }
    }
    expect_report(u.changed == 0, u.changed == 0 ? std::string() : untouched_report(info, name, u));
}

// A read-only buffer must come back byte for byte as it was uploaded.
void expect_unchanged(const CaseInfo& info, const std::string& name, const DeviceBuffer& buf,
                      const std::vector<std::uint8_t>& uploaded, std::size_t element_size);

}  // namespace wb::testkit
