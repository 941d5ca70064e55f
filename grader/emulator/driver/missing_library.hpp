// Names the CUDA library a missing header belongs to, so that a program using one the emulator does not provide
// (cuRAND, Thrust, cuFFT, …) is refused with that sentence after the compiler's own "No such file" line.
#pragma once
#include <string>
#include <string_view>

namespace emu::driver {

// The compiler's messages of a failed preprocessing; returns the sentence to add, or "" when the missing header (if
// any) is no CUDA library's.
std::string missing_library_note(const std::string& compiler_messages);

// A header of the real CUB (Debian's libcub-dev, which Thrust's package brings) in a preprocessed translation unit:
// the emulator provides some of CUB's headers; one it lacks falls through to the real one, which is GPU code (inline
// PTX) that g++ would answer with pages of errors. `line` is the line of the marker in the preprocessed text.
struct RealCub {
    bool found = false;
    std::string file;
    std::size_t line = 0;
};
RealCub real_cub_header(std::string_view preprocessed);

}  // namespace emu::driver
