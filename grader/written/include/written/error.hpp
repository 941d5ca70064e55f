// The one error of this library: a rubric that cannot be used (a malformed class, an unknown reference, an item
// without concepts). One sentence that names the rubric's part; callers show it as it is.
#pragma once

#include <stdexcept>

namespace workbook::written {

struct RubricError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

}  // namespace workbook::written
