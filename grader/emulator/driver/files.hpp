// Whole-file reads and writes of emu-nvcc's own steps (the preprocessed passes, the precompiled prelude's files).
#pragma once

#include <string>

namespace emu::driver {

// The bytes of `path` into *out; false when it cannot be opened.
bool read_file(const std::string& path, std::string* out);

// `text` as the whole of `path`; false when it cannot be written.
bool write_file(const std::string& path, const std::string& text);

}  // namespace emu::driver
