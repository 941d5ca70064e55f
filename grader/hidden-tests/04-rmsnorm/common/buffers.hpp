// Buffer plumbing shared by the runners of lesson 04 (runners.cpp, hunts.cpp): read guards, uploads of possibly empty
// tensors, and reading fp32 results back out of a downloaded allocation.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "remote/client.hpp"
#include "testkit/device.hpp"

namespace wb04 {

// Bytes of poison before and after every read-only buffer (input, weight). On the emulator none: a read outside a
// buffer then lands in the emulator's own guard zone, which ends the launch with an out-of-bounds report whether or not
// the value read is used. A GPU reports nothing and returns whatever lies next to the buffer, often zeros that leave a
// sum of squares unchanged; NaN there makes every such value that reaches a result show, on every seed.
// The judge is one program for both backends: which one the worker drives is known at run time.
inline std::size_t read_guard() { return wb::remote::config().backend == "gpu" ? wb::testkit::kGuard : 0; }

// An empty tensor (M = 0 or N = 0) has nothing to upload.
inline void upload(wb::testkit::DeviceBuffer& buf, const void* src, std::size_t bytes) {
    if (bytes != 0) buf.upload(src, bytes);
}

template <class T>
std::vector<std::uint8_t> bytes_of(const std::vector<T>& v) {
    std::vector<std::uint8_t> b(v.size() * sizeof(T));
    if (!b.empty()) std::memcpy(b.data(), v.data(), b.size());
    return b;
}

inline float load_f32(const std::vector<std::uint8_t>& bytes, std::size_t offset, std::uint32_t* bits) {
    std::memcpy(bits, &bytes[offset], 4);
    float f;
    std::memcpy(&f, bits, 4);
    return f;
}

}  // namespace wb04
