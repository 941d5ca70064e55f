// The emulator's prelude, precompiled once by the build (a g++ .gch), for emu-nvcc's compiles of .cu files.
//
// Every .cu file emu-nvcc compiles begins with the same text: emu/rewritten.hpp and what it includes, preprocessed,
// merged and rewritten (about 25,000 lines, most of what g++ parses for a worker). The build has emu-nvcc compile an
// empty .cu file with EMU_NVCC_WRITE_PCH=1, which writes that prefix into a header and precompiles it
// (grader/emulator/driver/CMakeLists.txt). A later compile whose translation unit begins with the same bytes, for the
// same compiler and flags, has that prefix replaced by `#pragma GCC pch_preprocess "<file>.gch"`, the line g++ itself
// writes for a precompiled header into preprocessed output (-fpch-preprocess); g++ then loads the .gch instead of
// parsing the text. The rest of the translation unit, the student's code with its line markers, is compiled as
// before: the messages name the same files and lines, and the object is the same (the test emu.driver.prelude_pch).
//
// Nothing in the folder is trusted: the header's bytes must equal this compile's own prefix, the command it was made
// for must equal this compile's, the .gch's size and time must be those the stamp recorded after it was written, and
// g++ checks the .gch against its own options. Where any of that fails, or a compile with the .gch fails, the whole
// text is compiled, as without it.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace emu::driver {

// Where the prelude lies in a rewritten translation unit: text[begin, end) is the prelude, the code after it starts
// at `rest` (past the line marker that leaves it). found is false when the text does not begin so.
struct PreludeSpan {
    std::size_t begin = 0, end = 0, rest = 0;
    bool found = false;
};
PreludeSpan find_prelude(const std::string& text);

// The files of the precompiled prelude for one prefix and compile command, in `dir`: named by a hash of both.
struct PreludePch {
    std::string header, gch, stamp;  // <key>.hpp, <key>.hpp.gch, <key>.stamp
    std::string header_text;         // what <key>.hpp holds: the prelude between the line markers it had in place
    std::string command;             // the compiler and its flags, one a line
};
PreludePch prelude_pch_files(const std::string& dir, const std::string& text, const PreludeSpan& span,
                             const std::string& cxx, const std::vector<std::string>& flags);

// The stamp that describes p.gch as it is now: the command, the .gch's size and modification time ("" when absent).
std::string prelude_pch_stamp(const PreludePch& p);

// `text` with its prelude replaced by the pragma that loads p.gch, or "" when the folder's files are not exactly the
// ones made for this prefix and command (absent, another prelude, another command, a .gch changed since its stamp).
std::string text_with_prelude_pch(const PreludePch& p, const std::string& text, const PreludeSpan& span);

}  // namespace emu::driver
