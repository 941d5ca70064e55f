// Errors a person caused (a wrong name, a missing folder, a bad file) as opposed to bugs: the CLI prints the message,
// one sentence, and exits non-zero without a stack of context.
#pragma once

#include <stdexcept>
#include <string>

namespace workbook::util {

struct UserError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

}  // namespace workbook::util
