// The emulator's profiler, seen from a program (docs/emulator.md, "Profiler"). Profiling is on when the environment
// variable EMU_PROFILE names a directory at start-up; these calls do nothing otherwise.
#pragma once

namespace emu {

// True when the profiler is on.
bool profiling();

// Describes the next launch: a label for the report ("16384 x 4096"), how many times larger the launch the
// prediction is for is (the emulator runs a few rows, the prediction is for the full-size launch: its grid has
// `scale` times the blocks, and counts scale per block), and the fewest bytes that full-size problem must move (each
// input read once, each output written once; 0: the bytes the launch touched, scaled). Applies to the next launch.
void profile_shape(const char* label, double scale, double min_bytes);

}  // namespace emu
