// The computation behind every `<!-- calc:<id> -->` number in the lesson 04 text, by id.
#pragma once

#include <map>
#include <string>

namespace lesson_test {

std::map<std::string, double> computed_values();

}  // namespace lesson_test
