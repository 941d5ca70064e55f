// What every lesson's benchmark measures its kernels on, and against: the sizes of the sweep and the roofline, the
// fastest of several large device-to-device copies. The same in every lesson, so that their tables and plots compare.
// Host interface.
#pragma once

#include <vector>

#include "copies.h"

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

// Every copy the roofline is chosen from (copies.h, whose fastest_copy chooses): the row copies and the grid-stride
// kernel, each over 2 GiB (far past the L2), checked word for word, then TB/s read + written, timed as the kernels
// are (timing.h).
std::vector<CopyFigure> time_copies(int replays);

}  // namespace bench
