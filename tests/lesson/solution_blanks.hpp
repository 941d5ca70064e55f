// The fills of the blanks in the solution files (docs/architecture.md, "Blank markers"), by exercise and blank id.
#pragma once

#include <filesystem>
#include <map>
#include <string>

namespace lesson_test {

// exercise (file stem) -> blank id -> the code between the markers
std::map<std::string, std::map<std::string, std::string>> solution_blanks(const std::filesystem::path& dir);

// Code with comments removed and all whitespace dropped, so that layout and explanatory comments do not matter.
std::string code_only(const std::string& code);

}  // namespace lesson_test
