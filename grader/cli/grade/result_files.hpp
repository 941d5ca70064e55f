// Where a grade run's results.json goes: build/results/<n>/runs/<UTC time>-<pid>/results.json, so that two runs
// started together in one checkout never read or overwrite each other's file; build/results/<n>/results.json is a
// link to the latest finished run's.
#pragma once

#include <filesystem>
#include <string>

namespace workbook::grade {

// A new run folder under `results_dir` (not created).
std::filesystem::path new_run_dir(const std::filesystem::path& results_dir);

// Points <results_dir>/results.json at `run_file` (a relative link, replaced atomically; a copy where links cannot be
// made), then keeps the newest 20 finished runs. A run still in progress has no results.json yet and is never removed.
void publish_latest(const std::filesystem::path& results_dir, const std::filesystem::path& run_file);

// A path shown relative to `root` when inside it, without resolving links (the latest link must be shown as such).
std::string shown_link(const std::filesystem::path& p, const std::filesystem::path& root);

}  // namespace workbook::grade
