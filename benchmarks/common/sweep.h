// What every lesson's benchmark measures its kernels on, and against: the sizes of the sweep and the roofline, a
// large device-to-device copy. The same in every lesson, so that their tables and plots compare. Host interface.
#pragma once

#include <vector>

namespace bench {

struct Shape {
    int M, N;
};

// Rows of the sweep, whose plot has hidden size on its x axis: source document 001's 2 x 256 rows of D.
constexpr int kSweepM = 512;

// kSweepM rows of N = 128, 256, … 8192 (with `quick`: 128, 2176 and the multiples of 1024), then five large shapes.
std::vector<Shape> shapes(bool quick);

// The device's L2 cache in bytes.
int l2_bytes();

// The roofline: TB/s of copy_kernel (device_data.h) over 2 GiB, far past the L2, read + written, timed as the kernels
// are (timing.h).
double copy_tbs(int replays);

}  // namespace bench
