// The readable report of a grade run (terminal, with colours only on a TTY) and its Markdown form for results.json.
#pragma once

#include <string>

#include "model.hpp"

namespace workbook::grade {

// One line: passed / not passed / pending, what failed, and always where the tests ran.
std::string make_verdict(const Run& run);

std::string format_report(const Run& run, bool color);

// `make grade-NN SEED=… [SUBMISSION=…] [EX=…] BACKEND=…`: the command that grades the same files the same way.
std::string replay_command(const Run& run);

// The terminal report's last line, after where results.json went: the exit status and what it means (1 is a
// verdict, not a broken build).
std::string exit_status_line(const Run& run);
std::string markdown_report(const Run& run);

}  // namespace workbook::grade
