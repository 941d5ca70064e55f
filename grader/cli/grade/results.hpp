// results.json in Gradescope's format, and .workbook/verified.json (content hashes graded on a GPU).
#pragma once

#include <filesystem>

#include <nlohmann/json.hpp>

#include "model.hpp"

namespace workbook::grade {

nlohmann::json results_json(const Run& run, const std::string& markdown_report);

// Marks run.exercises[i].gpu_verified from verified.json (or from this run when it ran on a GPU) and records the
// hashes a gpu run graded. Sets run.gpu_verification_done.
void update_gpu_verification(Run& run, const std::filesystem::path& repo_root);

}  // namespace workbook::grade
