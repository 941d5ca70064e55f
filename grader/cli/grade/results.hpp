// results.json in Gradescope's format.
#pragma once

#include <filesystem>

#include <nlohmann/json.hpp>

#include "model.hpp"

namespace workbook::grade {

nlohmann::json results_json(const Run& run, const std::string& markdown_report);

}  // namespace workbook::grade
