// `workbook watch 04`: re-grade whenever an exercise file or the answers are saved. Polls every second (file
// watching APIs fail on some file systems and editors), and says how to grade by hand when it sees nothing change.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <ostream>
#include <vector>

namespace workbook::tools {

struct WatchOptions {
    std::vector<std::filesystem::path> files;      // what to watch
    std::function<void()> grade;                    // runs one grade (prints its own report)
    std::function<bool()> keep_going = [] { return true; };  // checked every poll; false stops the watch
    std::chrono::milliseconds poll{1000};
    std::chrono::seconds quiet_notice{120};         // after this long without a change, print the fallback once
    std::string manual_command = "make grade-04";   // named in the fallback message
    bool grade_at_start = true;
};

// Returns the number of grades run.
int watch(const WatchOptions& opt, std::ostream& out);

// A fingerprint of the files: size, modification time and content, so a save that keeps the time is still seen.
std::size_t fingerprint(const std::vector<std::filesystem::path>& files);

}  // namespace workbook::tools
