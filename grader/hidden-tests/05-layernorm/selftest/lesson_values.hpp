// The computation behind every `<!-- calc:<id> -->` number in the lesson 05 text, by id.
#pragma once

#include <map>
#include <string>

namespace lesson05 {

std::map<std::string, double> computed_values();

}  // namespace lesson05
