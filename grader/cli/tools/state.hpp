// The student's own state, .workbook/state.json at the repository root (ignored by git):
//   {"lessons": {"04-rmsnorm": {"hints": {"<exercise>": {"<blank>": <levels revealed>}}}}}
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace workbook::tools {

std::filesystem::path state_path(const std::filesystem::path& repo_root);

// The state, or an empty object when there is none. A state file that is not valid JSON is moved into
// .workbook/backups/<timestamp>/ (so nothing is lost) and an empty state is returned; `note` then says where.
nlohmann::json load_state(const std::filesystem::path& repo_root, std::string* note = nullptr);

void save_state(const std::filesystem::path& repo_root, const nlohmann::json& state);

// Hints revealed so far for a lesson ("04" or "04-rmsnorm"): {"<exercise>": {"<blank>": level, …}, …}.
// Empty object when there is no state.
// An unreadable state file gives {} and one sentence in *problem (left alone when there is none), for the caller to
// show: a report must not claim that no hints were used when it could not tell.
nlohmann::json hints_used(const std::filesystem::path& repo_root, const std::string& lesson_id,
                          std::string* problem = nullptr);

}  // namespace workbook::tools
