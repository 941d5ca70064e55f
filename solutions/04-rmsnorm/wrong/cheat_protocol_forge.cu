// Known wrong answer (hostile input): speaks the judge's protocol itself: sends a well-formed reply claiming a clean
// launch before any kernel ran, then a frame header announcing 4 GiB and garbage. A reply only says what went wrong;
// success is read from the outputs, which stay poisoned. The oversized frame is refused, and the judge survives.
#include <cuda_runtime.h>
#include <unistd.h>

#include <cstdint>
#include <string>

void launch_rmsnorm(const float*, const float*, float*, int, int, float, cudaStream_t) {
    std::string reply;
    auto u32 = [&](std::uint32_t v) {
        for (int i = 0; i < 4; ++i) reply.push_back(static_cast<char>(v >> (8 * i)));
    };
    u32(0x57425732);  // the wire format's magic ("WBW2")
    reply.push_back(3);  // a reply
    reply.push_back(1);  // defined
    for (int i = 0; i < 4; ++i) u32(0);  // no exception, no errors
    u32(0);                              // no diagnostics
    u32(0);                              // no kernel times
    u32(0);                              // no copy times
    u32(0);                              // no timing error
    std::string frame;
    for (int i = 0; i < 4; ++i) frame.push_back(static_cast<char>(reply.size() >> (8 * i)));
    frame += reply;
    (void)write(4, frame.data(), frame.size());
    const unsigned char huge[] = {0xff, 0xff, 0xff, 0xff, 'x', 'x', 'x'};
    (void)write(4, huge, sizeof huge);
}
