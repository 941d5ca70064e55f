// `workbook watch 04`: re-grade whenever an exercise file or the answers are saved. Polls (file watching APIs fail on
// some file systems and editors); a burst of saves (an editor writing several files, or one file in several writes)
// starts one grade once the files have been still for `settle`. Each grade runs as a child process in its own
// process group, so `q` or Ctrl-C stops the watch at once, during a grade too, and a save during a grade replaces it.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace workbook::tools {

struct WatchOptions {
    std::vector<std::filesystem::path> files;                // what to watch
    std::vector<std::string> grade_command;                  // argv of one grade (prints its own report)
    std::function<bool()> keep_going = [] { return true; };  // checked every poll; false stops the watch
    int keys_fd = 0;                                         // `q` (or Ctrl-C typed as a byte) read here; -1: no keys
    std::chrono::milliseconds poll{200};
    std::chrono::milliseconds settle{500};         // a burst of saves ends after this long without a change
    std::chrono::seconds quiet_notice{120};        // after this long without a change, print the fallback once
    std::string manual_command = "make grade-04";  // named in the fallback message
    bool grade_at_start = true;
    bool clear_screen = false;  // clear the terminal before each grade (else a separator only)
};

struct WatchResult {
    int grades = 0;          // grades started
    int cancelled = 0;       // grades stopped by a newer save or by quitting
    std::string stopped_by;  // "q", "Ctrl-C", "signal" or "" (keep_going said stop)
};

WatchResult watch(const WatchOptions& opt, std::ostream& out);

// A fingerprint of the files: size, modification time and content, so a save that keeps the time is still seen.
std::size_t fingerprint(const std::vector<std::filesystem::path>& files);

}  // namespace workbook::tools
