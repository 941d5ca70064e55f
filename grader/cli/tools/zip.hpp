// A minimal ZIP writer (stored entries, no compression) for the Gradescope bundle: Gradescope needs a .zip with
// setup.sh and an executable run_autograder at its root, and the `zip` program is not installed everywhere.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace workbook::tools {

struct ZipEntry {
    std::string name;      // path inside the archive, '/' separated
    std::string data;
    unsigned mode = 0644;  // Unix permissions, kept so run_autograder stays executable
};

// Bytes of a ZIP archive holding `entries`.
std::string make_zip(const std::vector<ZipEntry>& entries);

std::uint32_t crc32(const std::string& data);

}  // namespace workbook::tools
