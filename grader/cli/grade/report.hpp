// The readable report of a grade run (terminal, with colours only on a TTY) and its Markdown form for results.json.
#pragma once

#include <string>

#include "model.hpp"

namespace workbook::grade {

// One line: passed / not passed / pending, what failed, and always where the tests ran.
std::string make_verdict(const Run& run);

std::string format_report(const Run& run, bool color);
std::string markdown_report(const Run& run);

}  // namespace workbook::grade
