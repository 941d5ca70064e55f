// Names the CUDA library a missing header belongs to, so that a program using one the emulator does not provide
// (cuRAND, Thrust, cuFFT, …) is refused with that sentence after the compiler's own "No such file" line.
#pragma once
#include <string>

namespace emu::driver {

// The compiler's messages of a failed preprocessing; returns the sentence to add, or "" when the missing header (if
// any) is no CUDA library's.
std::string missing_library_note(const std::string& compiler_messages);

}  // namespace emu::driver
