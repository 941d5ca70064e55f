// The emulator's reports name code by file:line through addr2line, which the sandboxed worker may not start (it
// forbids itself new processes), so a report made there names a memory access by its address: `pc 0x… (+0x…)`, the
// second number the offset inside the worker executable (grader/emulator/runtime/diagnostics.cpp). The grade, which
// built that executable and runs outside the sandbox, turns those offsets into `file.cu:line` here.
#pragma once

#include <filesystem>
#include <string>

namespace workbook::grade {

// `message` with each `pc 0x<address> (+0x<offset>)` replaced by the source file's name and line of that offset in
// `worker` (addr2line, a trusted tool); an offset addr2line cannot place stays as it was.
std::string name_code_lines(const std::string& message, const std::filesystem::path& worker);

}  // namespace workbook::grade
