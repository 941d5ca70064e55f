// The sinks' side of sanitizing: the readable report and results.json are built from a copy of the Run whose every
// string went through util::sanitize_text (names through util::sanitize_name), and results.json's strings once
// more after it is assembled, so no text from a submission or a student's program reaches either unsanitized,
// whichever stage put it into the Run.
#pragma once

#include <nlohmann/json.hpp>

#include "model.hpp"

namespace workbook::grade {

Run clean_copy(const Run& run);

// Every string (keys included) of `j`, sanitized in place.
void clean_json(nlohmann::json& j);

}  // namespace workbook::grade
